//! The simulator contracts' interfaces, declared once from their Solidity
//! (`simulator/TradeSimulator.sol`, `simulator/PrivilegeProbe.sol`), and
//! their committed runtime code.

use alloy_sol_types::sol;

/// The trade simulator's runtime code, compiled from `simulator/TradeSimulator.sol`.
pub const SIMULATOR_RUNTIME_HEX: &str = include_str!("simulator/TradeSimulator.runtime.hex");
/// The privilege probe's runtime code, compiled from `simulator/PrivilegeProbe.sol`.
pub const PROBE_RUNTIME_HEX: &str = include_str!("simulator/PrivilegeProbe.runtime.hex");

/// Native currency given to every simulated wallet by state override (10^30
/// wei, enough for any buy), as the override's hex quantity.
pub fn funds() -> String {
    format!(
        "{:#x}",
        alloy_primitives::U256::from(10).pow(alloy_primitives::U256::from(30))
    )
}

sol! {
    #![sol(all_derives)]

    /// What to trade and where (see `TradeSimulator.Plan`).
    struct Plan {
        address pair;
        address token;
        address wrapped;
        address quote;
        address pricePair;
        uint256 feeBps;
        address recipient;
        uint256 searchSteps;
        uint256 kind;
        uint256 priceKind;
        uint256 priceFeeBps;
        int24 spacing;
        address hooks;
    }

    /// A simulated buy, transfer and sell (see `TradeSimulator.Outcome`).
    struct Outcome {
        uint256 amountIn;
        bool buyOk;
        bytes buyRevert;
        uint256 expectedBuy;
        uint256 received;
        uint256 buyGas;
        bool transferOk;
        bytes transferRevert;
        uint256 transferSent;
        uint256 transferReceived;
        bool sellOk;
        bytes sellRevert;
        uint256 sellAmount;
        uint256 expectedSell;
        uint256 sellReceived;
        uint256 sellGas;
        uint256 maxSellable;
    }

    /// The trade simulator's entry points.
    interface ITradeSimulator {
        function simulate(Plan plan, uint256 amountBps) external returns (Outcome o);
        function buyIn(Plan plan, uint256 amountBps) external returns (Outcome o);
        function sellOut(Plan plan) external returns (Outcome o);
        function buyMax(Plan plan, uint256 highBps, uint256 steps) external returns (uint256 bps, uint256 received, bool capped);
    }

    /// The privilege probe's entry point.
    interface IPrivilegeProbe {
        struct Target {
            Plan plan;
            address victim;
            address buyer;
            uint256 buyBps;
            uint256 probeGas;
            uint256 reserveGas;
            address[] watch;
        }
        /// What one trade or call moved (`ProbeLedger.sol`).
        struct Ledger {
            bool readsOk;
            int256 unaccounted;
            uint256[] tokenGains;
            uint256[] valueGains;
            uint256 contractGain;
            uint256 contractLoss;
            uint256 contractValueLoss;
        }
        struct Snapshot {
            uint256 supply;
            uint256 victim;
            uint256 pair;
            uint256 role;
            bool readsOk;
            bool ownerOk;
            address owner;
        }
        struct Effect {
            bool ran;
            bool ok;
            bytes revertData;
            Snapshot after_;
            bool victimTransferOk;
            bool victimSellOk;
            uint256 victimSellExpected;
            uint256 victimSellReceived;
            Outcome buyer;
            bool smallBuyOk;
            bool smallSellOk;
            bool boundProbed;
            bool largeMintOk;
            bool againMintOk;
            Ledger call;
            Ledger trade;
        }
        struct Report {
            Outcome victimBuy;
            Snapshot before;
            Outcome roleTrade;
            Effect baseline;
            Effect[] effects;
            FollowUp[] followUps;
        }

        /// `calls[main]` run right after `calls[first]` (the first call
        /// that stopped the victim's transfers), from the same start.
        struct FollowUp {
            uint256 first;
            uint256 main;
            Effect effect;
        }
        struct HolderResult {
            bool ran;
            uint256 balance;
            bool transferOk;
            bool sellOk;
            uint256 sellExpected;
        }
        function probe(Target t, bytes[] calls) external returns (Report r);
        function replay(Plan plan, uint256 buyBps, address[] holders) external returns (Outcome fresh, HolderResult[] results);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_sol_types::SolCall;

    #[test]
    fn committed_runtimes_are_hex() {
        for code in [SIMULATOR_RUNTIME_HEX, PROBE_RUNTIME_HEX] {
            let code = hex::decode(code.trim().trim_start_matches("0x")).expect("hex");
            assert!(code.len() > 1000);
        }
    }

    #[test]
    fn the_entry_points_match_the_contracts() {
        let plan =
            "(address,address,address,address,address,uint256,address,uint256,uint256,uint256,uint256,int24,address)";
        assert_eq!(
            ITradeSimulator::simulateCall::SIGNATURE,
            format!("simulate({plan},uint256)")
        );
        assert_eq!(
            ITradeSimulator::sellOutCall::SIGNATURE,
            format!("sellOut({plan})")
        );
        assert_eq!(
            IPrivilegeProbe::probeCall::SIGNATURE,
            format!("probe(({plan},address,address,uint256,uint256,uint256,address[]),bytes[])")
        );
    }
}
