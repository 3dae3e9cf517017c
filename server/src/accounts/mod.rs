//! Accounts: created and re-planned by operators (CLI), bootstrapped on
//! first start. HTTP-agnostic.

use std::sync::Arc;

use rand::Rng;
use riskintel_api::{Plan, Scope};

use crate::keys::{IssuedKey, KeyError, Keys};
use riskintel_store::clock::Clock;
use riskintel_store::{Account, Store};

/// An account with its first key.
#[derive(Debug)]
pub struct NewAccount {
    /// The account.
    pub account: Account,
    /// Its first key (every scope), shown once.
    pub key: IssuedKey,
}

/// Parse a plan name as operators type it.
pub fn parse_plan(text: &str) -> Option<Plan> {
    match text
        .trim()
        .to_ascii_lowercase()
        .replace(['-', '+'], "_")
        .as_str()
    {
        "free" => Some(Plan::Free),
        "pro" => Some(Plan::Pro),
        "pro_plus" | "pro_" | "proplus" => Some(Plan::ProPlus),
        _ => None,
    }
}

fn new_account_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    let tail: String = (0..16)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("acct_{tail}")
}

/// Create an account on `plan` with a first key holding every scope.
pub async fn create_account(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    name: &str,
    plan: Plan,
) -> Result<NewAccount, KeyError> {
    let name = name.trim();
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(KeyError::Invalid(
            "name: must be non-empty, without control characters".into(),
        ));
    }
    let account = Account {
        id: new_account_id(),
        name: name.to_string(),
        plan,
        created_at: clock.now_seconds(),
    };
    store.account_insert(&account).await?;
    let keys = Keys::new(store.clone(), clock.clone());
    let key = keys
        .create(&account, "default", Some(Scope::ALL.to_vec()), None, None)
        .await?;
    Ok(NewAccount { account, key })
}

/// On an empty database, create the owner account on Pro+ and return it
/// (with its key, to print once); None when accounts already exist.
pub async fn bootstrap_owner(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
) -> Result<Option<NewAccount>, KeyError> {
    if store.account_count().await? > 0 {
        return Ok(None);
    }
    create_account(store, clock, "owner", Plan::ProPlus)
        .await
        .map(Some)
}
