//! What a contract's code can do, from its function selectors (found by
//! evmole, no source needed) and its opcodes.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use alloy_primitives::keccak256;

/// The 4-byte selector of a function signature.
fn selector(signature: &str) -> [u8; 4] {
    let hash = keccak256(signature.as_bytes());
    [hash[0], hash[1], hash[2], hash[3]]
}

/// A privileged power a token's code may give its controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    /// Create new tokens.
    Mint,
    /// Stop chosen addresses from moving tokens.
    Blacklist,
    /// Stop all transfers.
    Pause,
    /// Change buy/sell/transfer fees.
    SetFees,
    /// Set a fee for one address.
    SetFeePerAddress,
    /// Change maximum transaction or wallet sizes.
    SetLimits,
    /// Take ownership back after giving it up.
    ReclaimOwnership,
}

/// Known signatures of each power: a small local signature database.
const SIGNATURES: &[(Capability, &str)] = &[
    (Capability::Mint, "mint(address,uint256)"),
    (Capability::Mint, "mint(uint256)"),
    (Capability::Mint, "mintTo(address,uint256)"),
    (Capability::Mint, "mint(address,uint256,bytes)"),
    (Capability::Mint, "issue(uint256)"),
    (Capability::Mint, "generateTokens(address,uint256)"),
    (Capability::Mint, "configureMinter(address,uint256)"),
    (Capability::Blacklist, "blacklist(address)"),
    (Capability::Blacklist, "blacklist(address,bool)"),
    (Capability::Blacklist, "setBlacklist(address,bool)"),
    (Capability::Blacklist, "addToBlacklist(address)"),
    (Capability::Blacklist, "addBlackList(address)"),
    (Capability::Blacklist, "blacklistAddress(address,bool)"),
    (Capability::Blacklist, "setBlacklisted(address,bool)"),
    (Capability::Blacklist, "updateBlacklist(address,bool)"),
    (Capability::Blacklist, "setBots(address[])"),
    (Capability::Blacklist, "setBot(address,bool)"),
    (Capability::Blacklist, "addBots(address[])"),
    (Capability::Blacklist, "blockBots(address[])"),
    (Capability::Blacklist, "freeze(address)"),
    (Capability::Pause, "pause()"),
    (Capability::Pause, "setPaused(bool)"),
    (Capability::Pause, "setTradingEnabled(bool)"),
    (Capability::SetFees, "setFee(uint256)"),
    (Capability::SetFees, "setFees(uint256,uint256)"),
    (Capability::SetFees, "setTaxes(uint256,uint256)"),
    (Capability::SetFees, "setTax(uint256)"),
    (Capability::SetFees, "updateFees(uint256,uint256)"),
    (Capability::SetFees, "setBuyFee(uint256)"),
    (Capability::SetFees, "setSellFee(uint256)"),
    (Capability::SetFees, "setBuyTax(uint256)"),
    (Capability::SetFees, "setSellTax(uint256)"),
    (Capability::SetFees, "setTaxFeePercent(uint256)"),
    (Capability::SetFees, "setLiquidityFeePercent(uint256)"),
    (Capability::SetFees, "setMarketingFee(uint256)"),
    (Capability::SetFees, "updateBuyFees(uint256,uint256,uint256)"),
    (Capability::SetFees, "updateSellFees(uint256,uint256,uint256)"),
    (Capability::SetFeePerAddress, "setFeeForAddress(address,uint256)"),
    (Capability::SetFeePerAddress, "setTaxForAddress(address,uint256)"),
    (Capability::SetFeePerAddress, "setCustomFee(address,uint256)"),
    (Capability::SetLimits, "setMaxTxAmount(uint256)"),
    (Capability::SetLimits, "setMaxTxPercent(uint256)"),
    (Capability::SetLimits, "setMaxWallet(uint256)"),
    (Capability::SetLimits, "setMaxWalletSize(uint256)"),
    (Capability::SetLimits, "updateMaxTxnAmount(uint256)"),
    (Capability::SetLimits, "updateMaxWalletAmount(uint256)"),
    (Capability::SetLimits, "setMaxTransactionAmount(uint256)"),
    (Capability::ReclaimOwnership, "unlock()"),
    (Capability::ReclaimOwnership, "claimOwnership()"),
    (Capability::ReclaimOwnership, "reclaimOwnership()"),
    (Capability::ReclaimOwnership, "recoverOwnership()"),
];

fn table() -> &'static BTreeMap<[u8; 4], (Capability, &'static str)> {
    static TABLE: OnceLock<BTreeMap<[u8; 4], (Capability, &'static str)>> = OnceLock::new();
    TABLE.get_or_init(|| SIGNATURES.iter().map(|(c, sig)| (selector(sig), (*c, *sig))).collect())
}

/// What the code reveals.
#[derive(Clone, Debug, Default)]
pub struct CodeFacts {
    /// Powers found, with the signatures that showed them.
    pub powers: BTreeMap<Capability, Vec<&'static str>>,
    /// SELFDESTRUCT is in the code.
    pub selfdestruct: bool,
    /// DELEGATECALL is in the code.
    pub delegatecall: bool,
}

/// The code without its trailing CBOR metadata (which is data, not code).
fn strip_metadata(code: &[u8]) -> &[u8] {
    if code.len() < 2 {
        return code;
    }
    let len = u16::from_be_bytes([code[code.len() - 2], code[code.len() - 1]]) as usize;
    if len + 2 <= code.len() {
        let start = code.len() - 2 - len;
        if (0xa1..=0xa5).contains(&code[start]) {
            return &code[..start];
        }
    }
    code
}

/// Analyse runtime code.
pub fn analyse(code: &[u8]) -> CodeFacts {
    let info = evmole::contract_info(evmole::ContractInfoArgs::new(code).with_selectors().with_disassemble());
    let selectors: Vec<[u8; 4]> = info.functions.unwrap_or_default().into_iter().map(|f| f.selector).collect();
    let mut powers: BTreeMap<Capability, Vec<&'static str>> = BTreeMap::new();
    for s in &selectors {
        if let Some((capability, signature)) = table().get(s) {
            powers.entry(*capability).or_default().push(signature);
        }
    }
    let body_len = strip_metadata(code).len();
    let ops = info.disassembled.unwrap_or_default();
    let has = |name: &str| ops.iter().any(|(pc, op)| *pc < body_len && op == name);
    CodeFacts {
        selfdestruct: has("SELFDESTRUCT"),
        delegatecall: has("DELEGATECALL"),
        powers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_table_has_no_collisions() {
        assert_eq!(table().len(), SIGNATURES.len());
    }
}
