//! What kind of account an address is, read from its chain (EVM: code and
//! nonce; Solana: the account's owner and whether it is a program), and
//! where the service's holder index first saw it.

use alloy_primitives::{Bytes, U64};
use riskintel_chains::registry::Chains;
use riskintel_chains::rpc::Batch;
use riskintel_chains::solana::types::{Account, WithContext};
use riskintel_chains::solana::SYSTEM_PROGRAM;
use riskintel_store::Store;
use riskintel_types::{AddressFacts, AddressKind};
use serde_json::json;

use crate::tokens::{AnalysisError, Target};

/// The facts of `target`; a chain this server does not serve, or a node
/// that fails, gives kind `unknown` rather than an error.
pub async fn read(
    chains: &Chains,
    store: &dyn Store,
    target: &Target,
    key: &str,
) -> Result<AddressFacts, AnalysisError> {
    let first_seen_block = store
        .holder_first_seen(target.chain(), key)
        .await?
        .map(|b| b.max(0) as u64);
    let (kind, tx_count) = match target {
        Target::Evm(t) => match chains.evm(t.chain) {
            Ok(evm) => {
                let mut batch = Batch::new();
                let code = batch.call::<Bytes>("eth_getCode", json!([t.address, "latest"]));
                let nonce =
                    batch.call::<U64>("eth_getTransactionCount", json!([t.address, "latest"]));
                match evm.rpc.send(batch).await {
                    Ok(mut answers) => {
                        let code = answers.take(code).ok();
                        let nonce = answers.take(nonce).ok().map(|n| n.to::<u64>());
                        let kind = match code {
                            Some(c) if riskintel_chains::evm::is_contract_code(&c) => {
                                AddressKind::Contract
                            }
                            Some(_) => AddressKind::Eoa,
                            None => AddressKind::Unknown,
                        };
                        (kind, nonce)
                    }
                    Err(_) => (AddressKind::Unknown, None),
                }
            }
            Err(_) => (AddressKind::Unknown, None),
        },
        Target::Sol(key) => match chains.solana() {
            Ok(sol) => {
                let asked = json!([
                    riskintel_chains::solana::encode(key),
                    {"encoding": "base64", "dataSlice": {"offset": 0, "length": 0}}
                ]);
                let answer = sol
                    .rpc
                    .call::<WithContext<Option<Account>>>("getAccountInfo", asked)
                    .await;
                let kind = match answer {
                    Ok(found) => match found.value {
                        None => AddressKind::Eoa,
                        Some(a) if a.executable => AddressKind::Program,
                        Some(a) if a.owner == SYSTEM_PROGRAM => AddressKind::Eoa,
                        Some(_) => AddressKind::Account,
                    },
                    Err(_) => AddressKind::Unknown,
                };
                (kind, None)
            }
            Err(_) => (AddressKind::Unknown, None),
        },
    };
    Ok(AddressFacts {
        kind,
        tx_count,
        first_seen_block,
    })
}
