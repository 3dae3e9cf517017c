//! The route a wallet trades a token on — a V2-family router and the path
//! from the wrapped native currency to the token (through a stablecoin
//! where the pool is quoted in one) — and the calls that sell along it, so
//! the fresh wallet's trades and the pool's buyers' replayed sells are made
//! and read the same way: the router's quote read first, the sell made
//! with no minimum output, and what arrives measured as the seller's
//! wrapped-native balance before and after.

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::{sol, SolCall};

use riskintel_chains::evm::abi::{revert_reason, IERC20};
use riskintel_chains::evm::simulate::{SimCall, SimulatedCall};

sol! {
    interface IWalletRouter {
        function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) external payable;
        function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) external;
        function getAmountsOut(uint256 amountIn, address[] path) external view returns (uint256[] amounts);
    }
    interface IApprove {
        function approve(address spender, uint256 amount) external returns (bool);
    }
}

/// Calls in one sell, as [`Route::sell`] makes them.
pub const SELL_CALLS: usize = 5;

/// Where a wallet buys and sells the token.
#[derive(Clone, Debug)]
pub struct Route {
    /// The token.
    pub token: Address,
    /// The pool's router.
    pub router: Address,
    /// The wrapped native currency (what a sell ends in).
    pub weth: Address,
    /// The wrapped native currency to the token.
    pub buy_path: Vec<Address>,
    /// The token to the wrapped native currency.
    pub sell_path: Vec<Address>,
    /// Every trade's deadline.
    pub deadline: U256,
}

/// A call from `from`.
pub fn call(from: Address, to: Address, data: Vec<u8>, value: U256) -> SimCall {
    SimCall {
        from,
        to,
        data: Bytes::from(data),
        value,
    }
}

/// `holder`'s balance of `token`.
pub fn balance_of(token: Address, holder: Address) -> SimCall {
    call(
        holder,
        token,
        IERC20::balanceOfCall { holder }.abi_encode(),
        U256::ZERO,
    )
}

/// The single `uint256` a call returned, if it succeeded.
pub fn word(call: &SimulatedCall) -> Option<U256> {
    (call.ok() && call.return_data.len() >= 32)
        .then(|| U256::from_be_slice(&call.return_data[..32]))
}

/// How one sell went.
#[derive(Clone, Debug)]
pub struct SellRead {
    /// The seller's token balance just before it.
    pub held: Option<U256>,
    /// What the router quoted for it (no tax counted).
    pub quoted: Option<U256>,
    /// What arrived; the revert reason if the sell failed.
    pub received: Result<U256, String>,
}

impl Route {
    /// A buy of the token with `value` in native currency, for `to`.
    pub fn buy(&self, from: Address, value: U256) -> SimCall {
        let buy = IWalletRouter::swapExactETHForTokensSupportingFeeOnTransferTokensCall {
            amountOutMin: U256::ZERO,
            path: self.buy_path.clone(),
            to: from,
            deadline: self.deadline,
        };
        call(from, self.router, buy.abi_encode(), value)
    }

    /// `from` lets the router move all its tokens.
    pub fn approve(&self, from: Address) -> SimCall {
        let approve = IApprove::approveCall {
            spender: self.router,
            amount: U256::MAX,
        };
        call(from, self.token, approve.abi_encode(), U256::ZERO)
    }

    /// The router's allowance from `from`.
    pub fn allowance(&self, from: Address) -> SimCall {
        let allowance = IERC20::allowanceCall {
            holder: from,
            spender: self.router,
        };
        call(from, self.token, allowance.abi_encode(), U256::ZERO)
    }

    /// `from` sells `amount` with no minimum output: its token balance,
    /// its wrapped-native balance, the router's quote, the sell, and its
    /// wrapped-native balance again ([`SELL_CALLS`] calls).
    pub fn sell(&self, from: Address, amount: U256) -> [SimCall; SELL_CALLS] {
        let quote = IWalletRouter::getAmountsOutCall {
            amountIn: amount,
            path: self.sell_path.clone(),
        };
        let sell = IWalletRouter::swapExactTokensForTokensSupportingFeeOnTransferTokensCall {
            amountIn: amount,
            amountOutMin: U256::ZERO,
            path: self.sell_path.clone(),
            to: from,
            deadline: self.deadline,
        };
        [
            balance_of(self.token, from),
            balance_of(self.weth, from),
            call(from, self.router, quote.abi_encode(), U256::ZERO),
            call(from, self.router, sell.abi_encode(), U256::ZERO),
            balance_of(self.weth, from),
        ]
    }
}

/// Read a sell's calls, as [`Route::sell`] made them; None when the
/// node's answer lacks some.
pub fn read_sell(calls: &[SimulatedCall]) -> Option<SellRead> {
    let [held, before, quote, sell, after] = calls else {
        return None;
    };
    let quoted = (quote.ok())
        .then(|| {
            IWalletRouter::getAmountsOutCall::abi_decode_returns(&quote.return_data)
                .ok()
                .and_then(|amounts| amounts.last().copied())
        })
        .flatten();
    let received = if sell.ok() {
        match (word(before), word(after)) {
            (Some(b), Some(a)) => Ok(a.saturating_sub(b)),
            _ => Err("the seller's balance could not be read".to_string()),
        }
    } else {
        Err(revert_reason(&sell.return_data))
    };
    Some(SellRead {
        held: word(held),
        quoted,
        received,
    })
}

/// The share of `quoted` kept back when `received` arrived (the sell tax,
/// price impact aside).
pub fn tax(quoted: Option<U256>, received: &Result<U256, String>) -> Option<f64> {
    let (quoted, received) = (quoted?, received.as_ref().ok()?);
    if quoted.is_zero() {
        return None;
    }
    let kept = f64::from(*received) / f64::from(quoted);
    Some((1.0 - kept).clamp(0.0, 1.0))
}
