//! The route a wallet trades a token on — a V2-family router and the path
//! from the wrapped native currency to the token (through a stablecoin
//! where the pool is quoted in one) — and the calls that sell along it, so
//! the fresh wallet's trades and the pool's buyers' replayed sells are made
//! and read the same way: the router's quote read first, the sell made
//! with no minimum output, and what arrives measured as the seller's
//! wrapped-native balance before and after.

use alloy_primitives::{Address, Bytes, U256};
use alloy_sol_types::{sol, SolCall};
use serde_json::{json, Value};

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

/// One sell along a route, as it went.
#[derive(Clone, Debug)]
pub struct Sell {
    /// Tokens offered.
    pub amount: U256,
    /// The seller's token balance just before it (a rebasing or reflection
    /// token's balance moves by itself).
    pub held: Option<U256>,
    /// What the router quoted for it (no tax counted).
    pub quoted: Option<U256>,
    /// What arrived; the revert reason if the sell failed.
    pub received: Result<U256, String>,
}

impl Sell {
    /// The share of the quote kept back (the sell tax, price impact aside).
    pub fn tax(&self) -> Option<f64> {
        super::tax(self.quoted?, *self.received.as_ref().ok()?)
    }

    /// Whether the seller held less than it offered: a revert then proves
    /// nothing of the token.
    pub fn unheld(&self) -> bool {
        self.held.is_some_and(|h| h < self.amount)
    }

    /// The sell as evidence, with `more` fields of its seller's.
    pub fn evidence(&self, mut more: serde_json::Map<String, Value>) -> Value {
        let received = match &self.received {
            Ok(r) => r.to_string(),
            Err(e) => format!("failed: {e}"),
        };
        more.extend([
            ("amount".into(), json!(self.amount.to_string())),
            ("held".into(), json!(self.held.map(|h| h.to_string()))),
            ("quoted".into(), json!(self.quoted.map(|q| q.to_string()))),
            ("received".into(), json!(received)),
            ("tax".into(), json!(self.tax())),
        ]);
        Value::Object(more)
    }
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

/// Read the calls of a sell of `amount`, as [`Route::sell`] made them;
/// None when the node's answer lacks some.
pub fn read_sell(calls: &[SimulatedCall], amount: U256) -> Option<Sell> {
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
    Some(Sell {
        amount,
        held: word(held),
        quoted,
        received,
    })
}
