//! A mint's holders by owner, from its largest token accounts.

use std::collections::HashSet;

use riskintel_chains::solana::pools::Accounts;
use riskintel_chains::solana::{self as sol, layouts};

/// The owners of the `largest` token accounts read in `accounts`, with
/// what each holds, largest first: pools (`pool_accounts`: their
/// addresses and vaults) and the incinerator left out.
pub fn owners(
    accounts: &Accounts,
    largest: &[(String, u64)],
    pool_accounts: &HashSet<String>,
) -> Vec<(String, u64)> {
    let incinerator = sol::encode(&sol::key(sol::INCINERATOR));
    let mut by_owner: Vec<(String, u64)> = Vec::new();
    for (address, amount) in largest {
        if pool_accounts.contains(address) {
            continue;
        }
        let Some(account) = (sol::parse_pubkey(address).ok())
            .and_then(|k| accounts.get(&k))
            .and_then(|a| layouts::decode_token_account(&a.data))
        else {
            continue;
        };
        let owner = sol::encode(&account.owner);
        if owner == incinerator || pool_accounts.contains(&owner) {
            continue;
        }
        match by_owner.iter_mut().find(|(o, _)| *o == owner) {
            Some((_, held)) => *held = held.saturating_add(*amount),
            None => by_owner.push((owner, *amount)),
        }
    }
    by_owner.sort_by_key(|o| std::cmp::Reverse(o.1));
    by_owner
}
