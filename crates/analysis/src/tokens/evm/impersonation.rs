//! Impersonation: a token whose symbol is a well-known token's of the same
//! chain (its wrapped native currency, its configured stablecoins) while it
//! lives at another address. Symbols are compared case-folded, with look-alike
//! Cyrillic and Greek letters read as the Latin ones they imitate and
//! invisible characters dropped.

use alloy_primitives::Address;
use riskintel_types::{CheckId, Severity, SignalCategory};
use serde_json::json;

use crate::scoring::{band, Builder};
use riskintel_chains::evm::addr;

/// A letter as the Latin letter it looks like (lower case).
fn fold(c: char) -> Option<char> {
    let latin = match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'в' | 'В' | 'β' | 'Β' => 'b',
        'с' | 'С' => 'c',
        'е' | 'Е' | 'ε' | 'Ε' => 'e',
        'н' | 'Н' | 'η' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'ν' | 'Ν' => 'n',
        'о' | 'О' | 'ο' | 'Ο' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ѕ' | 'Ѕ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' => 't',
        'у' | 'У' | 'υ' | 'Υ' => 'y',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'ζ' | 'Ζ' => 'z',
        c if c.is_alphanumeric() => return c.to_lowercase().next(),
        // Spaces, dots, zero-width and other invisible characters.
        _ => return None,
    };
    Some(latin)
}

/// A symbol as it reads.
pub fn folded(symbol: &str) -> String {
    symbol.chars().filter_map(fold).collect()
}

/// Record `impersonation` for `token` with `symbol`, against the chain's well-known tokens.
pub fn assess(
    b: &mut Builder,
    token: Address,
    symbol: Option<&str>,
    known: &[(Address, String)],
    allow_listed: bool,
) {
    let Some(symbol) = symbol.filter(|s| !folded(s).is_empty()) else {
        return b.unknown(CheckId::Impersonation, "the token has no readable symbol");
    };
    let reads_as = folded(symbol);
    let imitated = known
        .iter()
        .find(|(address, known_symbol)| *address != token && folded(known_symbol) == reads_as);
    match imitated {
        Some((address, known_symbol)) if !allow_listed => b.detected(
            CheckId::Impersonation,
            SignalCategory::Contract,
            Severity::Critical,
            band::CRITICAL,
            "Impersonates a well-known token",
            format!(
                "The symbol {symbol:?} reads as {known_symbol}, the symbol of the well-known token at {}, but this token is at another address.",
                addr(address)
            ),
            "eth_call symbol() via Multicall3; the chain's configured wrapped native and stablecoins",
            json!({"symbol": symbol, "reads_as": reads_as, "imitates": {"symbol": known_symbol, "address": addr(address)}}),
        ),
        _ => b.clear(CheckId::Impersonation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_letters_read_as_latin() {
        assert_eq!(folded("USDТ"), "usdt"); // Cyrillic Т
        assert_eq!(folded("wЕТН"), "weth");
        assert_eq!(folded("U.S.D.C\u{200b}"), "usdc");
        assert_ne!(folded("USDC2"), "usdc");
    }
}
