//! The tokens a transaction moves or grants: their symbol, decimals and the
//! wallet's balance before (one multicall), their price and the engine's
//! verdict (cached, or made now for tokens received, within the deadline),
//! and the wallet's changes written out with them.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::{Address, U256};
use riskintel_chains::evm::abi::{string_or_bytes32, units, IERC20};
use riskintel_chains::evm::addr;
use riskintel_chains::evm::multicall::{Call, Multicall, Pending};
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::evm::EvmChain;
use riskintel_chains::rpc::{Answers, Batch};
use riskintel_chains::Chain;
use riskintel_types::{
    ApprovalChange, AssetChange, AssetKind, Direction, Risk, RiskKind, Severity, TokenAnalysis,
    TokenVerdict,
};

use super::changes::Change;
use super::events::{self, Grant, Standard};
use super::judge;
use super::parties::Party;
use super::Presign;
use crate::tokens::{Target, TokenRef};

/// What one token's reads gave.
#[derive(Clone, Debug, Default)]
pub struct TokenFacts {
    /// Symbol.
    pub symbol: Option<String>,
    /// Decimals (ERC-20 only).
    pub decimals: Option<u8>,
    /// The wallet's balance before.
    pub balance: Option<U256>,
}

type Reads = (
    Call<IERC20::symbolCall>,
    Call<IERC20::decimalsCall>,
    Call<IERC20::balanceOfCall>,
);

/// The token reads, sent in a batch.
pub struct PendingFacts {
    pending: Option<Pending>,
    reads: Vec<(Address, Reads)>,
}

/// Add to `batch` the reads of `tokens` (symbol, decimals, `wallet`'s balance) at `head`.
pub fn read(
    batch: &mut Batch,
    evm: &EvmChain,
    head: u64,
    wallet: Address,
    tokens: &BTreeSet<Address>,
) -> PendingFacts {
    let mut calls = Multicall::new();
    let reads = tokens
        .iter()
        .map(|t| {
            (
                *t,
                (
                    calls.add(*t, IERC20::symbolCall {}),
                    calls.add(*t, IERC20::decimalsCall {}),
                    calls.add(*t, IERC20::balanceOfCall { holder: wallet }),
                ),
            )
        })
        .collect();
    let pending = (!calls.is_empty())
        .then(|| calls.into_batch(batch, evm.multicall, &BlockTag::Number(head)));
    PendingFacts { pending, reads }
}

impl PendingFacts {
    /// The facts read (empty ones where the multicall failed).
    pub fn take(self, answers: &mut Answers) -> HashMap<Address, TokenFacts> {
        let results = self
            .pending
            .and_then(|p| p.take(answers).ok())
            .unwrap_or_default();
        self.reads
            .into_iter()
            .map(|(token, (symbol, decimals, balance))| {
                let facts = TokenFacts {
                    symbol: results
                        .raw(symbol)
                        .and_then(string_or_bytes32)
                        .filter(|s| !s.is_empty()),
                    decimals: results.get(decimals),
                    balance: results.get(balance),
                };
                (token, facts)
            })
            .collect()
    }
}

/// A grant as the answer writes it, with its token's symbol and what its spender is.
pub fn written(grant: &Grant, symbol: Option<String>, spender: Option<&Party>) -> ApprovalChange {
    ApprovalChange {
        kind: grant.kind,
        token: addr(&grant.token),
        symbol,
        spender: addr(&grant.spender),
        spender_kind: spender
            .map(Party::kind)
            .unwrap_or(riskintel_types::AccountKind::Eoa),
        spender_name: spender.and_then(|p| p.name.clone()),
        amount_raw: grant.amount.map(|a| a.to_string()),
        unlimited: events::is_unlimited(grant),
        expires_at: (grant.expires)
            .filter(|e| *e > 0)
            .and_then(|e| chrono::DateTime::from_timestamp(i64::try_from(e).ok()?, 0)),
        revoked: grant.revoked,
    }
}

/// The native currency's symbol.
pub fn native_symbol(chain: Chain) -> &'static str {
    match chain {
        Chain::Eth | Chain::Base | Chain::Arb => "ETH",
        Chain::Bsc => "BNB",
        Chain::Poly => "POL",
        Chain::Avax => "AVAX",
        Chain::Ftm => "FTM",
        Chain::Sol => "SOL",
    }
}

/// The tokens' facts, prices and verdicts.
pub struct Assets {
    chain: Chain,
    facts: HashMap<Address, TokenFacts>,
    analyses: HashMap<Address, Arc<TokenAnalysis>>,
    /// Tokens received whose verdict could not be made in time.
    late: BTreeSet<Address>,
    native_usd: Option<f64>,
}

impl Assets {
    /// Look up prices and verdicts: cached ones for every token, and the
    /// tokens received analysed now if not cached, within `remaining`.
    pub async fn judge(
        presign: &Presign,
        chain: Chain,
        evm: &EvmChain,
        facts: HashMap<Address, TokenFacts>,
        changes: &[Change],
        remaining: Duration,
    ) -> Assets {
        let analyzer = &presign.analyzer;
        let target = |a: Address| Target::from(TokenRef { chain, address: a });
        let mut analyses = HashMap::new();
        let mut cold = Vec::new();
        let received: BTreeSet<Address> = changes
            .iter()
            .filter(|c| c.incoming && c.standard == Standard::Erc20)
            .map(|c| c.token)
            .collect();
        let mut wanted: BTreeSet<Address> = facts.keys().copied().collect();
        wanted.insert(evm.wrapped.address);
        for token in wanted {
            match analyzer.any_cached(target(token)).await {
                Ok(Some(analysis)) => {
                    analyses.insert(token, analysis);
                }
                _ if received.contains(&token) => cold.push(token),
                _ => {}
            }
        }
        let margin = Duration::from_millis(100);
        let made = tokio::time::timeout(
            remaining.saturating_sub(margin),
            futures::future::join_all(cold.iter().map(|t| analyzer.analysed(target(*t), false))),
        )
        .await;
        let mut late = BTreeSet::new();
        match made {
            Ok(outcomes) => {
                for (token, outcome) in cold.iter().zip(outcomes) {
                    match outcome {
                        Ok(analysed) => {
                            analyses.insert(*token, analysed.analysis);
                        }
                        Err(_) => {
                            late.insert(*token);
                        }
                    }
                }
            }
            Err(_) => late.extend(cold.iter().copied()),
        }
        let native_usd = analyses
            .get(&evm.wrapped.address)
            .and_then(|a| a.meta.price_usd);
        Assets {
            chain,
            facts,
            analyses,
            late,
            native_usd,
        }
    }

    fn symbol(&self, token: &Address) -> Option<String> {
        let from_facts = self.facts.get(token).and_then(|f| f.symbol.clone());
        from_facts.or_else(|| self.analyses.get(token).map(|a| a.meta.symbol.clone()))
    }

    /// The wallet's balance of `token` before.
    pub fn balance_before(&self, token: &Address) -> Option<U256> {
        self.facts.get(token).and_then(|f| f.balance)
    }

    /// A grant written out.
    pub fn approval(&self, grant: &Grant, parties: &HashMap<Address, Party>) -> ApprovalChange {
        written(
            grant,
            self.symbol(&grant.token),
            parties.get(&grant.spender),
        )
    }

    /// The changes written out; findings on the tokens received added to `risks`.
    pub fn changes(&self, changes: &[Change], risks: &mut Vec<Risk>) -> Vec<AssetChange> {
        changes
            .iter()
            .map(|c| {
                let native = c.standard == Standard::Native;
                let decimals = if native { Some(18) } else if c.standard == Standard::Erc20 {
                    self.facts.get(&c.token).and_then(|f| f.decimals)
                } else {
                    Some(0)
                };
                let analysis = (!native).then(|| self.analyses.get(&c.token)).flatten();
                let price = if native { self.native_usd } else { analysis.and_then(|a| a.meta.price_usd) };
                let amount = decimals.map(|d| units(c.amount, d));
                let symbol = if native { Some(native_symbol(self.chain).to_string()) } else { self.symbol(&c.token) };
                let token = addr(&c.token);
                if c.incoming && !native {
                    if let Some(a) = analysis {
                        risks.extend(judge::received_token_risk(&token, symbol.as_deref().unwrap_or(&token), a.label));
                    } else if self.late.contains(&c.token) {
                        risks.push(judge::risk(RiskKind::NotChecked, Severity::Medium, Some(token.clone()), "The verdict on a token you receive could not be made in time; look it up before you sign.".into()));
                    }
                }
                AssetChange {
                    asset: match c.standard {
                        Standard::Native => AssetKind::Native,
                        Standard::Erc20 => AssetKind::Erc20,
                        Standard::Erc721 => AssetKind::Erc721,
                        Standard::Erc1155 => AssetKind::Erc1155,
                    },
                    token: (!native).then_some(token),
                    symbol,
                    token_id: c.id.map(|id| id.to_string()),
                    direction: if c.incoming { Direction::In } else { Direction::Out },
                    amount_raw: c.amount.to_string(),
                    amount,
                    value_usd: amount.zip(price).map(|(a, p)| a * p),
                    fee_raw: c.fee.map(|f| f.to_string()),
                    fee_share: c.fee.zip(c.gross).map(|(f, g)| units(f, 0) / units(g, 0).max(1.0)),
                    counterparties: c.counterparties.iter().map(addr).collect(),
                    token_verdict: analysis.map(|a| TokenVerdict::from(&**a)),
                }
            })
            .collect()
    }
}

/// Everything of a kind leaving the wallet with nothing back: a whole token
/// balance, (nearly) the whole native balance, or several NFTs of one
/// collection, to someone else.
pub fn drains(
    written: &[AssetChange],
    changes: &[Change],
    assets: &Assets,
    native_before: Option<U256>,
    signer: &str,
) -> Vec<Risk> {
    if written.iter().any(|c| c.direction == Direction::In) {
        return Vec::new();
    }
    let mut nfts: HashMap<Address, usize> = HashMap::new();
    let mut out = Vec::new();
    for (change, shown) in changes.iter().zip(written) {
        if change.incoming || shown.counterparties.iter().all(|c| c == signer) {
            continue;
        }
        let whole = match change.standard {
            Standard::Erc20 => assets
                .balance_before(&change.token)
                .is_some_and(|b| !b.is_zero() && change.amount >= b),
            // Gas aside, at least 99.9 % of the native balance.
            Standard::Native => native_before
                .is_some_and(|b| !b.is_zero() && change.amount >= b - b / U256::from(1000)),
            Standard::Erc721 | Standard::Erc1155 => {
                *nfts.entry(change.token).or_default() += 1;
                nfts[&change.token] == 2
            }
        };
        if whole {
            let what = shown
                .symbol
                .clone()
                .or(shown.token.clone())
                .unwrap_or_default();
            out.push(judge::risk(
                RiskKind::DrainsAsset,
                Severity::Critical,
                shown.token.clone(),
                format!("All of your {what} leaves the wallet and nothing comes back."),
            ));
        }
    }
    out
}
