//! What a contract's code holds: its external functions (found by evmole,
//! no source needed: selectors, argument types, mutability) and its opcodes.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use alloy_primitives::{keccak256, Address, B256};
use evmole::{DynSolType, StateMutability};

/// The 4-byte selector of a function signature.
fn selector(signature: &str) -> [u8; 4] {
    let hash = keccak256(signature.as_bytes());
    [hash[0], hash[1], hash[2], hash[3]]
}

/// Known signatures: a small local name book. A name is a hint for the
/// evidence and the explanation, never the proof of a power: every
/// non-standard function is probed by its effect, named or not.
const SIGNATURES: &[&str] = &[
    "mint(address,uint256)",
    "mint(uint256)",
    "mintTo(address,uint256)",
    "mint(address,uint256,bytes)",
    "issue(uint256)",
    "generateTokens(address,uint256)",
    "configureMinter(address,uint256)",
    "burn(address,uint256)",
    "burnFrom(address,uint256)",
    "blacklist(address)",
    "blacklist(address,bool)",
    "setBlacklist(address,bool)",
    "addToBlacklist(address)",
    "addBlackList(address)",
    "blacklistAddress(address,bool)",
    "setBlacklisted(address,bool)",
    "updateBlacklist(address,bool)",
    "setBots(address[])",
    "setBot(address,bool)",
    "addBots(address[])",
    "blockBots(address[])",
    "freeze(address)",
    "pause()",
    "unpause()",
    "setPaused(bool)",
    "setTradingEnabled(bool)",
    "enableTrading()",
    "openTrading()",
    "setFee(uint256)",
    "setFees(uint256,uint256)",
    "setTaxes(uint256,uint256)",
    "setTax(uint256)",
    "updateFees(uint256,uint256)",
    "setBuyFee(uint256)",
    "setSellFee(uint256)",
    "setBuyTax(uint256)",
    "setSellTax(uint256)",
    "setTaxFeePercent(uint256)",
    "setLiquidityFeePercent(uint256)",
    "setMarketingFee(uint256)",
    "updateBuyFees(uint256,uint256,uint256)",
    "updateSellFees(uint256,uint256,uint256)",
    "setFeeForAddress(address,uint256)",
    "setTaxForAddress(address,uint256)",
    "setCustomFee(address,uint256)",
    "setMaxTxAmount(uint256)",
    "setMaxTxPercent(uint256)",
    "setMaxWallet(uint256)",
    "setMaxWalletSize(uint256)",
    "updateMaxTxnAmount(uint256)",
    "updateMaxWalletAmount(uint256)",
    "setMaxTransactionAmount(uint256)",
    "removeLimits()",
    "unlock()",
    "lock(uint256)",
    "claimOwnership()",
    "reclaimOwnership()",
    "recoverOwnership()",
    "transferOwnership(address)",
    "renounceOwnership()",
    "setPair(address)",
    "upgradeTo(address)",
    "upgradeToAndCall(address,bytes)",
];

/// ERC-20 (and EIP-2612) functions every holder calls: not privileged, not probed.
const STANDARD: &[&str] = &[
    "transfer(address,uint256)",
    "transferFrom(address,address,uint256)",
    "approve(address,uint256)",
    "increaseAllowance(address,uint256)",
    "decreaseAllowance(address,uint256)",
    "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)",
];

fn table() -> &'static BTreeMap<[u8; 4], &'static str> {
    static TABLE: OnceLock<BTreeMap<[u8; 4], &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| SIGNATURES.iter().map(|sig| (selector(sig), *sig)).collect())
}

/// A function of the code (found by evmole), with what evmole could tell
/// of its arguments and mutability, and its name when the book knows it.
#[derive(Clone, Debug)]
pub struct FunctionFacts {
    /// The 4-byte selector.
    pub selector: [u8; 4],
    /// Argument types, where evmole could recover them.
    pub arguments: Option<Vec<DynSolType>>,
    /// Whether it only reads state (`view` or `pure`), where known.
    pub read_only: Option<bool>,
    /// Its signature, when the name book knows it.
    pub signature: Option<&'static str>,
}

impl FunctionFacts {
    /// Its signature, or `function 0x…` when unknown.
    pub fn describe(&self) -> String {
        self.signature
            .map(str::to_string)
            .unwrap_or_else(|| format!("function 0x{}", hex::encode(self.selector)))
    }

    /// Whether it is worth probing: it may change state and is not a
    /// standard ERC-20 function.
    pub fn probed(&self) -> bool {
        self.read_only != Some(true) && !STANDARD.iter().any(|s| selector(s) == self.selector)
    }
}

/// An `address` variable in the code's storage layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredAddress {
    /// Its slot.
    pub slot: B256,
    /// Its byte offset in the slot, from the low end.
    pub offset: u8,
}

/// What the code reveals.
#[derive(Clone, Debug, Default)]
pub struct CodeFacts {
    /// Its external functions.
    pub functions: Vec<FunctionFacts>,
    /// Plain `address` variables that its probed functions read (where a
    /// private operator would be kept), in slot order.
    pub stored_addresses: Vec<StoredAddress>,
    /// SELFDESTRUCT is in the code.
    pub selfdestruct: bool,
    /// DELEGATECALL is in the code.
    pub delegatecall: bool,
    /// Addresses written in the code (a PUSH20) and compared, a few
    /// instructions away, with the caller or the transaction's origin: a
    /// gatekeeper no storage slot or interface names.
    pub code_addresses: Vec<Address>,
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
    let args = evmole::ContractInfoArgs::new(code)
        .with_selectors()
        .with_arguments()
        .with_state_mutability()
        .with_storage()
        .with_disassemble();
    let info = evmole::contract_info(args);
    let functions = info
        .functions
        .unwrap_or_default()
        .into_iter()
        .map(|f| FunctionFacts {
            selector: f.selector,
            arguments: f.arguments,
            read_only: f
                .state_mutability
                .map(|m| matches!(m, StateMutability::View | StateMutability::Pure)),
            signature: table().get(&f.selector).copied(),
        })
        .collect::<Vec<FunctionFacts>>();
    let probed: Vec<[u8; 4]> = functions
        .iter()
        .filter(|f| f.probed())
        .map(|f| f.selector)
        .collect();
    let stored_addresses = info
        .storage
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.r#type == "address" && r.reads.iter().any(|s| probed.contains(s)))
        .map(|r| StoredAddress {
            slot: B256::from(r.slot),
            offset: r.offset,
        })
        .collect();
    let body_len = strip_metadata(code).len();
    let ops = info.disassembled.unwrap_or_default();
    let has = |name: &str| ops.iter().any(|(pc, op)| *pc < body_len && op == name);
    let body: Vec<&(usize, String)> = ops.iter().filter(|(pc, _)| *pc < body_len).collect();
    CodeFacts {
        selfdestruct: has("SELFDESTRUCT"),
        delegatecall: has("DELEGATECALL"),
        code_addresses: caller_constants(&body),
        functions,
        stored_addresses,
    }
}

/// Instructions on either side of a PUSH20 looked at for CALLER or ORIGIN.
const GATE_WINDOW: usize = 6;

/// The addresses pushed within [`GATE_WINDOW`] instructions of a CALLER or
/// ORIGIN, in code order, once each (the all-ones address mask and zero
/// left out).
fn caller_constants(ops: &[&(usize, String)]) -> Vec<Address> {
    let mut found: Vec<Address> = Vec::new();
    for (i, (_, op)) in ops.iter().enumerate() {
        let Some(hex) = op.strip_prefix("PUSH20 ") else {
            continue;
        };
        let Ok(bytes) = hex::decode(hex) else {
            continue;
        };
        let address = Address::from_slice(&bytes);
        if address.is_zero() || address == Address::repeat_byte(0xff) || found.contains(&address) {
            continue;
        }
        let near = ops[i.saturating_sub(GATE_WINDOW)..(i + GATE_WINDOW + 1).min(ops.len())]
            .iter()
            .any(|(_, op)| op == "CALLER" || op == "ORIGIN");
        if near {
            found.push(address);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_compared_with_the_caller_are_found_and_masks_are_not() {
        let gate = [0x11u8; 20];
        let mut code = vec![0x33]; // CALLER
        code.push(0x73); // PUSH20 gate
        code.extend_from_slice(&gate);
        code.push(0x14); // EQ
        code.push(0x73); // PUSH20 the address mask
        code.extend_from_slice(&[0xff; 20]);
        code.push(0x16); // AND
        code.extend_from_slice(&[0x5b; 20]); // JUMPDESTs: out of the window
        code.push(0x73); // PUSH20 an unrelated address
        code.extend_from_slice(&[0x22; 20]);
        code.push(0x50); // POP
        let facts = analyse(&code);
        assert_eq!(facts.code_addresses, vec![Address::repeat_byte(0x11)]);
    }

    #[test]
    fn signature_table_has_no_collisions() {
        assert_eq!(table().len(), SIGNATURES.len());
    }
}
