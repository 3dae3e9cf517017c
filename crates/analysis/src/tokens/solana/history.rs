//! A mint's signature history, paged back from its first page.

use serde_json::json;

use riskintel_chains::rpc::RpcError;
use riskintel_chains::solana::types::SignatureInfo;
use riskintel_chains::solana::SolanaChain;

/// Signatures fetched per page when dating a mint.
pub const SIGNATURE_PAGE: u64 = 1000;
/// Pages of signatures read at most; a mint with more history is old enough not to be new.
const SIGNATURE_PAGES: usize = 5;

/// Page back from the first page of signatures to the oldest one (each
/// page one more round trip, at most [`SIGNATURE_PAGES`]); the list and
/// whether it reached the first signature.
pub async fn page_signatures(
    chain: &SolanaChain,
    mint: &str,
    first: Result<Vec<SignatureInfo>, RpcError>,
) -> (Result<Vec<SignatureInfo>, RpcError>, bool) {
    let mut list = match first {
        Ok(list) => list,
        Err(e) => return (Err(e), false),
    };
    let mut reached_end = (list.len() as u64) < SIGNATURE_PAGE;
    let mut pages = 1;
    while !reached_end && pages < SIGNATURE_PAGES {
        let Some(before) = list.last().map(|s| s.signature.clone()) else {
            break;
        };
        pages += 1;
        match chain
            .rpc
            .call::<Vec<SignatureInfo>>(
                "getSignaturesForAddress",
                json!([mint, {"limit": SIGNATURE_PAGE, "before": before}]),
            )
            .await
        {
            Ok(more) => {
                reached_end = (more.len() as u64) < SIGNATURE_PAGE;
                list.extend(more);
            }
            Err(e) => return (Err(e), false),
        }
    }
    (Ok(list), reached_end)
}
