//! Signing secrets at rest. Every delivery is signed with its
//! subscription's secret, so the secret cannot be hashed like an API key;
//! with the operator's `secrets_key` it is stored sealed instead
//! (AES-256-GCM, a random nonce, the subscription id as associated data, so
//! a sealed value copied to another row does not open). Without the key,
//! secrets are stored as they are; an instance started with it seals
//! those (`Webhooks::seal_stored`). Either form is read back: a value that
//! starts with the secret prefix is plain, one with [`SEALED_PREFIX`] is
//! sealed.

use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use rand::Rng as _;

use super::SECRET_PREFIX;

/// What a sealed secret starts with: the format's version, then the nonce
/// and the ciphertext with its tag, in hex.
pub const SEALED_PREFIX: &str = "sealed:v1:";

/// Why a stored secret could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// Sealed, and this instance has no `secrets_key`.
    #[error("the signing secret is sealed and `webhooks.secrets_key` is not set")]
    NoKey,
    /// Sealed with another key, for another subscription, or damaged.
    #[error("the signing secret does not open with `webhooks.secrets_key` (another key, or a damaged value)")]
    Unopened,
    /// Neither plain nor sealed.
    #[error("the stored signing secret has an unknown form")]
    UnknownForm,
}

/// Seals and opens signing secrets with the operator's key, if any.
pub struct Sealer {
    key: Option<LessSafeKey>,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sealer")
            .field("sealing", &self.key.is_some())
            .finish()
    }
}

impl Sealer {
    /// From the configured key: empty for none, else 64 hex digits (32 bytes).
    pub fn new(key_hex: &str) -> Result<Sealer, String> {
        let key_hex = key_hex.trim();
        if key_hex.is_empty() {
            return Ok(Sealer { key: None });
        }
        let bytes = hex::decode(key_hex)
            .ok()
            .filter(|b| b.len() == 32)
            .ok_or("webhooks.secrets_key: must be 64 hex digits (32 random bytes), or empty")?;
        let key = UnboundKey::new(&AES_256_GCM, &bytes)
            .map_err(|_| "webhooks.secrets_key: not a usable AES-256 key")?;
        Ok(Sealer {
            key: Some(LessSafeKey::new(key)),
        })
    }

    /// Whether secrets are sealed.
    pub fn seals(&self) -> bool {
        self.key.is_some()
    }

    /// `secret` of subscription `id`, as it is to be stored.
    pub fn seal(&self, id: &str, secret: &str) -> String {
        let Some(key) = &self.key else {
            return secret.to_string();
        };
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill(&mut nonce);
        let mut sealed = secret.as_bytes().to_vec();
        key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce),
            Aad::from(id.as_bytes()),
            &mut sealed,
        )
        .expect("AES-GCM seals a short secret");
        format!(
            "{SEALED_PREFIX}{}{}",
            hex::encode(nonce),
            hex::encode(sealed)
        )
    }

    /// The secret of subscription `id` from its stored form.
    pub fn open(&self, id: &str, stored: &str) -> Result<String, SealError> {
        if stored.starts_with(SECRET_PREFIX) {
            return Ok(stored.to_string());
        }
        let Some(sealed) = stored.strip_prefix(SEALED_PREFIX) else {
            return Err(SealError::UnknownForm);
        };
        let key = self.key.as_ref().ok_or(SealError::NoKey)?;
        let bytes = hex::decode(sealed).map_err(|_| SealError::Unopened)?;
        if bytes.len() <= NONCE_LEN {
            return Err(SealError::Unopened);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SealError::Unopened)?;
        let mut ciphertext = ciphertext.to_vec();
        let plain = key
            .open_in_place(nonce, Aad::from(id.as_bytes()), &mut ciphertext)
            .map_err(|_| SealError::Unopened)?;
        String::from_utf8(plain.to_vec()).map_err(|_| SealError::Unopened)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const SECRET: &str = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn sealed_secrets_open_only_for_their_subscription_and_key() {
        let sealer = Sealer::new(KEY).unwrap();
        let sealed = sealer.seal("wh_aaaaaaaaaaaa", SECRET);
        assert!(sealed.starts_with(SEALED_PREFIX) && !sealed.contains(&SECRET[6..]));
        // A fresh nonce each time.
        assert_ne!(sealed, sealer.seal("wh_aaaaaaaaaaaa", SECRET));
        assert_eq!(sealer.open("wh_aaaaaaaaaaaa", &sealed).unwrap(), SECRET);
        assert_eq!(
            sealer.open("wh_bbbbbbbbbbbb", &sealed),
            Err(SealError::Unopened)
        );
        let other = Sealer::new(&KEY.replace("00", "ff")).unwrap();
        assert_eq!(
            other.open("wh_aaaaaaaaaaaa", &sealed),
            Err(SealError::Unopened)
        );
        let mut damaged = sealed.clone();
        let last = damaged.pop().unwrap();
        damaged.push(if last == '0' { '1' } else { '0' });
        assert!(sealer.open("wh_aaaaaaaaaaaa", &damaged).is_err());
        assert_eq!(
            Sealer::new("").unwrap().open("wh_aaaaaaaaaaaa", &sealed),
            Err(SealError::NoKey)
        );
    }

    #[test]
    fn plain_secrets_pass_either_way() {
        for key in ["", KEY] {
            let sealer = Sealer::new(key).unwrap();
            assert_eq!(sealer.open("wh_a", SECRET).unwrap(), SECRET);
        }
        assert_eq!(Sealer::new("").unwrap().seal("wh_a", SECRET), SECRET);
        assert_eq!(
            Sealer::new(KEY).unwrap().open("wh_a", "garbage"),
            Err(SealError::UnknownForm)
        );
    }

    #[test]
    fn keys_must_be_32_bytes_of_hex() {
        assert!(Sealer::new(&KEY[2..]).is_err());
        assert!(Sealer::new(&KEY.replace('0', "z")).is_err());
        assert!(Sealer::new(KEY).unwrap().seals());
        assert!(!Sealer::new(" ").unwrap().seals());
    }
}
