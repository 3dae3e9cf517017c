//! The `Riskintel-Signature` header, Stripe-style so existing verifiers
//! work: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, with a
//! second `v1=` signed by the previous secret while a rotation's grace lasts.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header that carries the signature.
pub const HEADER: &str = "Riskintel-Signature";

/// Deliveries older than this, by their `t=`, are refused by [`verify`].
pub const TOLERANCE_SECONDS: i64 = 300;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value for `body` sent at `timestamp`, signed with each of
/// `secrets` (the current one first).
pub fn sign(secrets: &[impl AsRef<str>], timestamp: i64, body: &[u8]) -> String {
    let mut header = format!("t={timestamp}");
    for secret in secrets {
        let signature = hex::encode(
            mac(secret.as_ref(), timestamp, body)
                .finalize()
                .into_bytes(),
        );
        header.push_str(",v1=");
        header.push_str(&signature);
    }
    header
}

/// Why a signature was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The header is not `t=…,v1=…`.
    #[error("the signature header is malformed")]
    Malformed,
    /// `t=` is further from now than [`TOLERANCE_SECONDS`].
    #[error("the signature's timestamp is too old or in the future")]
    Stale,
    /// No `v1=` matches the body under the secret.
    #[error("no signature matches")]
    Mismatch,
}

/// Check `header` for `body` with `secret` at `now` (what a receiver does;
/// the tests use it as the documented recipe). Comparison is in constant time.
pub fn verify(secret: &str, header: &str, body: &[u8], now: i64) -> Result<(), Refused> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => {
                signatures.push(hex::decode(value).map_err(|_| Refused::Malformed)?)
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(Refused::Malformed)?;
    if signatures.is_empty() {
        return Err(Refused::Malformed);
    }
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(Refused::Stale);
    }
    let matches = signatures
        .iter()
        .any(|signature| mac(secret, timestamp, body).verify_slice(signature).is_ok());
    if matches {
        Ok(())
    } else {
        Err(Refused::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_with_its_secret_only() {
        let body = br#"{"id":"evt_1","type":"ping"}"#;
        let header = sign(&["whsec_new"], 1_700_000_000, body);
        assert!(header.starts_with("t=1700000000,v1="));
        assert_eq!(verify("whsec_new", &header, body, 1_700_000_010), Ok(()));
        assert_eq!(
            verify("whsec_other", &header, body, 1_700_000_010),
            Err(Refused::Mismatch)
        );
        assert_eq!(
            verify("whsec_new", &header, b"{}", 1_700_000_010),
            Err(Refused::Mismatch)
        );
        assert_eq!(
            verify("whsec_new", &header, body, 1_700_001_000),
            Err(Refused::Stale)
        );
        assert_eq!(
            verify("whsec_new", "v1=00", body, 0),
            Err(Refused::Malformed)
        );
    }

    #[test]
    fn during_a_rotation_both_secrets_verify() {
        let body = b"{}";
        let header = sign(&["whsec_new", "whsec_old"], 100, body);
        assert_eq!(header.matches("v1=").count(), 2);
        assert_eq!(verify("whsec_new", &header, body, 100), Ok(()));
        assert_eq!(verify("whsec_old", &header, body, 100), Ok(()));
    }

    #[test]
    fn the_digest_matches_an_independent_implementation() {
        // Python: hmac.new(b"whsec_test", b'1700000000.{"id":"evt_1"}', hashlib.sha256).hexdigest()
        let header = sign(&["whsec_test"], 1_700_000_000, br#"{"id":"evt_1"}"#);
        assert_eq!(
            header,
            "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925"
        );
    }
}
