//! The contracts the service talks to, as `sol!` interfaces: calls are
//! encoded and answers decoded by `alloy-sol-types`, never by hand. Also the
//! events the indexes read, and revert reasons in words.

use alloy_primitives::U256;
use alloy_sol_types::{sol, SolError};

sol! {
    /// ERC-20, with the owner getters of Ownable and BEP-20.
    interface IERC20 {
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        function totalSupply() external view returns (uint256);
        function balanceOf(address holder) external view returns (uint256);
        function allowance(address holder, address spender) external view returns (uint256);
        function owner() external view returns (address);
        function getOwner() external view returns (address);

        event Transfer(address indexed from, address indexed to, uint256 value);
        event Approval(address indexed owner, address indexed spender, uint256 value);
        event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    }

    /// Tokens whose metadata is a `bytes32` (early tokens such as MKR).
    interface IERC20Bytes32 {
        function name() external view returns (bytes32);
        function symbol() external view returns (bytes32);
    }

    /// EIP-1967 beacons and the `Upgraded` event of upgradeable proxies.
    /// What tells who controls a contract: OpenZeppelin `TimelockController`
    /// (`getMinDelay`), Compound's `Timelock` (`delay`), Safe (`getThreshold`, `getOwners`).
    interface IControl {
        function getMinDelay() external view returns (uint256);
        function delay() external view returns (uint256);
        function getThreshold() external view returns (uint256);
        function getOwners() external view returns (address[]);
    }

    /// OpenZeppelin `AccessControlEnumerable`: a role's members.
    interface IAccessControl {
        function getRoleMember(bytes32 role, uint256 index) external view returns (address);

        event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);
        event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender);
    }

    interface IBeacon {
        function implementation() external view returns (address);

        event Upgraded(address indexed implementation);
    }

    /// A Uniswap-V2-style factory.
    interface IUniswapV2Factory {
        function getPair(address tokenA, address tokenB) external view returns (address pair);

        event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index);
    }

    /// A Uniswap-V2-style pair (it is also the ERC-20 of its LP tokens).
    interface IUniswapV2Pair {
        function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
        function totalSupply() external view returns (uint256);
        function balanceOf(address holder) external view returns (uint256);

        event Mint(address indexed sender, uint256 amount0, uint256 amount1);
        event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
        event Sync(uint112 reserve0, uint112 reserve1);
    }

    /// Multicall3: many calls in one `eth_call`, each allowed to fail.
    interface IMulticall3 {
        struct Call3 {
            address target;
            bool allowFailure;
            bytes callData;
        }
        struct Result {
            bool success;
            bytes returnData;
        }
        function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData);
    }

    /// Solidity's standard revert payloads.
    error Error(string reason);
    error Panic(uint256 code);
}

/// A string answer, or a `bytes32` one (old tokens), trimmed of NULs and control characters.
pub fn string_or_bytes32(data: &[u8]) -> Option<String> {
    use alloy_sol_types::SolCall;
    if let Ok(text) = IERC20::nameCall::abi_decode_returns(data) {
        return Some(clean_text(text.as_bytes()));
    }
    let word = IERC20Bytes32::nameCall::abi_decode_returns(data).ok()?;
    let end = word.iter().position(|b| *b == 0).unwrap_or(32);
    Some(clean_text(&word[..end]))
}

fn clean_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_string()
}

/// A revert payload in words: the `Error(string)` text, a panic code, or a
/// custom error's selector.
pub fn revert_reason(data: &[u8]) -> String {
    if data.is_empty() {
        return "reverted without a reason".into();
    }
    if let Ok(error) = Error::abi_decode(data) {
        return clean_text(error.reason.as_bytes());
    }
    if let Ok(panic) = Panic::abi_decode(data) {
        return format!("panic {:#x}", panic.code);
    }
    if data.len() >= 4 {
        return format!("custom error 0x{}", hex::encode(&data[..4]));
    }
    format!("reverted with 0x{}", hex::encode(data))
}

/// Whole-token value of a base-unit amount.
pub fn units(amount: U256, decimals: u8) -> f64 {
    let raw: f64 = amount.to_string().parse().unwrap_or(0.0);
    raw / 10f64.powi(decimals as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_sol_types::{SolCall, SolEvent, SolValue};

    #[test]
    fn selectors_and_topics_match_the_published_ones() {
        assert_eq!(
            hex::encode(IMulticall3::aggregate3Call::SELECTOR),
            "82ad56cb"
        );
        assert_eq!(hex::encode(IERC20::balanceOfCall::SELECTOR), "70a08231");
        assert_eq!(
            hex::encode(IUniswapV2Factory::getPairCall::SELECTOR),
            "e6a43905"
        );
        assert_eq!(
            hex::encode(IUniswapV2Pair::getReservesCall::SELECTOR),
            "0902f1ac"
        );
        assert_eq!(
            format!("{:#x}", IERC20::Transfer::SIGNATURE_HASH),
            "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
        );
        assert_eq!(
            format!("{:#x}", IUniswapV2Factory::PairCreated::SIGNATURE_HASH),
            "0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9"
        );
    }

    #[test]
    fn names_decode_as_string_or_bytes32() {
        let string = "Hello".to_string().abi_encode();
        assert_eq!(string_or_bytes32(&string).as_deref(), Some("Hello"));
        let mut word = [0u8; 32];
        word[..5].copy_from_slice(b"Hello");
        assert_eq!(string_or_bytes32(&word).as_deref(), Some("Hello"));
        assert_eq!(string_or_bytes32(&[1, 2, 3]), None);
    }

    #[test]
    fn revert_reasons_are_decoded() {
        assert_eq!(
            revert_reason(
                &Error {
                    reason: "nope".into()
                }
                .abi_encode()
            ),
            "nope"
        );
        assert_eq!(
            revert_reason(
                &Panic {
                    code: U256::from(0x11)
                }
                .abi_encode()
            ),
            "panic 0x11"
        );
        assert_eq!(
            revert_reason(&[0xde, 0xad, 0xbe, 0xef]),
            "custom error 0xdeadbeef"
        );
        assert_eq!(revert_reason(&[]), "reverted without a reason");
    }
}
