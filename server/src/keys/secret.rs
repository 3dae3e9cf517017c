//! A key's shape and its secret: how it is made, shown, parsed, hashed
//! and checked (only the hash is ever stored).

use chrono::{DateTime, Utc};
use rand::{Rng, TryRngCore};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use riskintel_store::KeyRecord;

/// Every key starts with this.
pub const KEY_PREFIX: &str = "ri_live_";
/// Length of a key id.
pub const KEY_ID_LEN: usize = 12;
/// Length of the hex secret.
pub const SECRET_HEX_LEN: usize = 64;
/// A key as presented by a client, split into its parts.
#[derive(Debug, PartialEq)]
pub struct PresentedKey<'a> {
    /// The id part.
    pub id: &'a str,
    /// The secret part (64 lowercase hex).
    pub secret: &'a str,
}

/// Split `ri_live_<id>.<64 hex>`; None for anything else.
pub fn parse_key(raw: &str) -> Option<PresentedKey<'_>> {
    let rest = raw.strip_prefix(KEY_PREFIX)?;
    let (id, secret) = rest.split_once('.')?;
    let id_ok = is_key_id(id);
    let secret_ok = secret.len() == SECRET_HEX_LEN
        && secret
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (id_ok && secret_ok).then_some(PresentedKey { id, secret })
}

/// Whether `id` has the shape of a key id (12 of `[a-z0-9]`).
pub fn is_key_id(id: &str) -> bool {
    id.len() == KEY_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// SHA-256 of a secret, hex.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Constant-time equality of two hex hashes.
fn hashes_equal(a: &[u8], b: &str) -> bool {
    a.len() == b.len() && bool::from(a.ct_eq(b.as_bytes()))
}

/// A fresh key id: 12 characters of `[a-z0-9]`.
pub fn new_key_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..KEY_ID_LEN)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A fresh secret: 32 bytes from the OS RNG, as 64 hex.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the OS random source works");
    hex::encode(bytes)
}

/// The full key from its parts.
pub fn full_key(id: &str, secret: &str) -> String {
    format!("{KEY_PREFIX}{id}.{secret}")
}

/// The key with its secret elided.
pub fn display_key(id: &str) -> String {
    format!("{KEY_PREFIX}{id}.…")
}

/// Whether `secret` authenticates `key` at `now`: the current secret, or
/// the previous one while its grace period lasts; never a revoked or
/// expired key.
pub fn secret_matches(key: &KeyRecord, secret: &str, now: DateTime<Utc>) -> bool {
    if key.revoked_at.is_some() || key.expires_at.is_some_and(|t| t <= now) {
        return false;
    }
    // The hash's hex in a buffer of its own: no allocation per request.
    let mut presented = [0u8; 64];
    hex::encode_to_slice(Sha256::digest(secret.as_bytes()), &mut presented)
        .expect("64 hex digits hold 32 bytes");
    let current = hashes_equal(&presented, &key.secret_hash);
    let previous = match (&key.previous_secret_hash, key.previous_valid_until) {
        (Some(hash), Some(until)) if until > now => hashes_equal(&presented, hash),
        _ => false,
    };
    current | previous
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn keys_have_the_documented_shape_and_parse_back() {
        let id = new_key_id();
        let secret = new_secret();
        let key = full_key(&id, &secret);
        assert!(key.starts_with("ri_live_"));
        assert_eq!(
            parse_key(&key),
            Some(PresentedKey {
                id: &id,
                secret: &secret
            })
        );
        assert_ne!(new_secret(), secret);
    }

    #[test]
    fn malformed_keys_do_not_parse() {
        let good_secret = "a".repeat(64);
        for bad in [
            String::new(),
            format!("ri_test_abcdefghijkl.{good_secret}"),
            format!("ri_live_abcdefghijk.{good_secret}"),
            format!("ri_live_ABCDEFGHIJKL.{good_secret}"),
            format!("ri_live_abcdefghijkl.{}", "A".repeat(64)),
            format!("ri_live_abcdefghijkl.{}", "a".repeat(63)),
            format!("ri_live_abcdefghijkl{good_secret}"),
        ] {
            assert_eq!(parse_key(&bad), None, "{bad}");
        }
    }

    #[test]
    fn previous_secret_works_only_during_grace() {
        let now = Utc::now();
        let key = KeyRecord {
            id: "abcdefghijkl".into(),
            account_id: "acct".into(),
            name: "k".into(),
            scopes: vec![],
            secret_hash: hash_secret("new"),
            previous_secret_hash: Some(hash_secret("old")),
            previous_valid_until: Some(now + Duration::hours(1)),
            created_at: now,
            expires_at: None,
            last_used_at: None,
            rotated_at: Some(now),
            revoked_at: None,
        };
        assert!(secret_matches(&key, "new", now));
        assert!(secret_matches(&key, "old", now));
        assert!(!secret_matches(&key, "old", now + Duration::hours(1)));
        assert!(!secret_matches(&key, "other", now));
        let revoked = KeyRecord {
            revoked_at: Some(now),
            ..key.clone()
        };
        assert!(!secret_matches(&revoked, "new", now));
        let expired = KeyRecord {
            expires_at: Some(now),
            ..key
        };
        assert!(!secret_matches(&expired, "new", now));
    }
}
