//! A power's effect in words, with the numbers the probe read.

use alloy_primitives::U256;

use super::{Exercised, Power};
use crate::scoring::pct;
use crate::simulation::tax;
use riskintel_chains::evm::abi::units;
use riskintel_chains::evm::addr;

/// What the call did, as the signal's detail says it.
pub(super) fn effect_words(power: Power, found: &Exercised, decimals: u8) -> String {
    let (after, before) = (&found.effect.after_, found.before);
    let amount = |v: U256| format!("{:.4}", units(v, decimals));
    match power {
        Power::Mint if after.supply == before.supply => format!(
            "raised balances without an equal fall anywhere observed (its own from {} to {}, a holder's from {} to {}, the pool's from {} to {}) while the total supply stayed at {}: balances written directly",
            amount(before.role),
            amount(after.role),
            amount(before.victim),
            amount(after.victim),
            amount(before.pair),
            amount(after.pair),
            amount(after.supply)
        ),
        Power::Mint => format!(
            "raised the total supply from {} to {}",
            amount(before.supply),
            amount(after.supply)
        ),
        Power::BurnFromOthers => format!(
            "burned other holders' tokens: the supply fell from {} to {}",
            amount(before.supply),
            amount(after.supply)
        ),
        Power::SeizeBalance => format!(
            "moved other holders' tokens away: a holder went from {} to {}, the pool from {} to {}",
            amount(before.victim),
            amount(after.victim),
            amount(before.pair),
            amount(after.pair)
        ),
        Power::Blacklist if found.candidate.names_pair => {
            "blocked the pool, so no one could buy or sell".into()
        }
        Power::Blacklist => {
            "stopped a chosen holder from transferring or selling, while others still traded".into()
        }
        Power::Pause if super::sells_nothing(&found.effect.buyer) => format!(
            "left a fresh wallet's sell returning {} of its quote: sellers cannot leave",
            pct(1.0 - tax(found.effect.buyer.expectedSell, found.effect.buyer.sellReceived).unwrap_or(1.0))
        ),
        Power::Pause => "stopped a fresh wallet from buying or selling, even a small amount".into(),
        Power::SetLimits => {
            "stopped a fresh wallet's full-size buy or sell while a small one still passed".into()
        }
        Power::SetFees => format!("raised a fresh wallet's fee to {}", pct(found.fee)),
        Power::SetFeePerAddress => format!(
            "raised one holder's sell fee to {} while others' stayed",
            pct(found.fee)
        ),
        Power::ReclaimOwnership => {
            format!("made it the owner (owner() became {})", addr(&after.owner))
        }
    }
}
