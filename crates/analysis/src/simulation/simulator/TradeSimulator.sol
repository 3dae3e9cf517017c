// SPDX-License-Identifier: Apache-2.0
// The project's trade simulator. Its runtime code is injected with an
// eth_call state override at a fresh random address (no transaction is ever
// sent): it buys the token from a pool with its quote token (wrapped native
// currency, or a stablecoin bought with it first), probes a wallet-to-wallet
// transfer, sells what it bought, and when a full sell fails binary-searches
// the largest sell that succeeds. How it swaps in each pool family
// (Uniswap-V2-style pairs, V3-style pools, Uniswap V4, Solidly-style pools) is in PoolSwaps.sol.
// Every probe runs in a self-call that always reverts, so each starts from
// the same state and leaves none behind.
pragma solidity ^0.8.20;

import "./PoolSwaps.sol";

contract TradeSimulator is PoolSwaps {
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

    error ProbeResult(Probe probe);

    /// A sell of `amount`, undone by its revert.
    function probeSell(Venue memory v, address token, address quote, uint256 amount) external {
        require(msg.sender == address(this), "self only");
        revert ProbeResult(swapIn(v, token, quote, amount));
    }

    /// A wallet-to-wallet transfer of `amount` to `recipient`, undone by its revert.
    function probeTransfer(address token, address recipient, uint256 amount) external {
        require(msg.sender == address(this), "self only");
        Probe memory p;
        p.expected = amount;
        uint256 before = tokenBalance(token, recipient);
        uint256 gasStart = gasleft();
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Like.transfer, (recipient, amount)));
        p.gasUsed = gasStart - gasleft();
        if (ok) {
            p.ok = true;
            uint256 arrived = tokenBalance(token, recipient);
            p.received = arrived > before ? arrived - before : 0;
        } else {
            p.revertData = data;
        }
        revert ProbeResult(p);
    }

    function runProbe(bytes memory call) internal returns (Probe memory) {
        (, bytes memory data) = address(this).call(call);
        if (data.length >= 4 && bytes4(data) == ProbeResult.selector) {
            bytes memory body = new bytes(data.length - 4);
            for (uint256 i = 0; i < body.length; i++) body[i] = data[i + 4];
            return abi.decode(body, (Probe));
        }
        Probe memory failed;
        failed.revertData = data;
        return failed;
    }

    function sellProbe(Plan memory plan, uint256 amount) internal returns (Probe memory) {
        return runProbe(abi.encodeCall(this.probeSell, (venue(plan), plan.token, plan.quote, amount)));
    }

    struct Plan {
        address pair;
        address token;
        address wrapped;
        /// The pair's other token: the wrapped native, or a stablecoin bought first on `pricePair`.
        address quote;
        /// The wrapped-native/quote pair (unused when the quote is the wrapped native).
        address pricePair;
        uint256 feeBps;
        address recipient;
        uint256 searchSteps;
        /// The pair's family, and the price pair's family and fee.
        uint256 kind;
        uint256 priceKind;
        uint256 priceFeeBps;
        /// A V4 pool's key beside its currencies and fee (`pair` is the PoolManager).
        int24 spacing;
        address hooks;
    }

    function venue(Plan memory plan) internal pure returns (Venue memory) {
        return Venue(plan.pair, plan.kind, plan.feeBps, plan.spacing, plan.hooks);
    }

    /// Buy with `amountBps` (of 10,000) of the pair's quote reserve, probe
    /// a transfer, sell, and find the largest sell that succeeds when the
    /// full one fails. A quote other than the wrapped native is first bought
    /// with it on `pricePair`.
    function simulate(Plan memory plan, uint256 amountBps) external returns (Outcome memory o) {
        if (!fund(plan, amountBps, o)) return o;
        buyStep(plan, o);
        if (!o.buyOk || o.received == 0) return o;
        transferStep(plan, o);
        sellStep(plan, o);
    }

    /// Buy as `simulate` does and keep the tokens: the first step of a
    /// trade spread over several simulated blocks.
    function buyIn(Plan memory plan, uint256 amountBps) external returns (Outcome memory o) {
        if (fund(plan, amountBps, o)) buyStep(plan, o);
    }

    /// Sell every token held, for real (the token's own records of sells
    /// and buys see it, as they would a wallet's); when that fails, try a
    /// thousandth of it. `maxSellable` is what was sold.
    function sellOut(Plan memory plan) external returns (Outcome memory o) {
        o.received = tokenBalance(plan.token, address(this));
        o.sellAmount = o.received;
        if (o.received == 0) return o;
        Probe memory sell = swapIn(venue(plan), plan.token, plan.quote, o.received);
        o.sellOk = sell.ok;
        o.sellRevert = sell.revertData;
        o.expectedSell = sell.expected;
        o.sellReceived = sell.received;
        o.sellGas = sell.gasUsed;
        if (sell.ok) {
            o.maxSellable = o.received;
        } else if (o.received >= 1000 && swapIn(venue(plan), plan.token, plan.quote, o.received / 1000).ok) {
            o.maxSellable = o.received / 1000;
        }
    }

    error BuyResult(bool ok, uint256 received);

    /// The largest buy that passes — in basis points of the pair's quote
    /// reserve, up to `highBps`, found in `steps` halvings of trial buys that
    /// are undone — then made for real. `capped` when `highBps` itself failed.
    function buyMax(Plan memory plan, uint256 highBps, uint256 steps)
        external
        returns (uint256 bps, uint256 received, bool capped)
    {
        (bool ok, ) = trialBuy(plan, highBps);
        bps = highBps;
        if (!ok) {
            capped = true;
            uint256 lo = 0;
            uint256 hi = highBps;
            for (uint256 i = 0; i < steps && hi - lo > 1; i++) {
                uint256 mid = lo + (hi - lo) / 2;
                (bool passed, ) = trialBuy(plan, mid);
                if (passed) lo = mid;
                else hi = mid;
            }
            bps = lo;
        }
        if (bps == 0) return (0, 0, capped);
        Outcome memory o;
        if (fund(plan, bps, o)) buyStep(plan, o);
        received = o.buyOk ? o.received : 0;
    }

    /// Self-call only: a buy of `amountBps`, undone, reverting with its result.
    function tryBuy(Plan memory plan, uint256 amountBps) external {
        require(msg.sender == address(this), "self only");
        Outcome memory o;
        if (fund(plan, amountBps, o)) buyStep(plan, o);
        revert BuyResult(o.buyOk && o.received != 0, o.received);
    }

    function trialBuy(Plan memory plan, uint256 amountBps) internal returns (bool ok, uint256 received) {
        (, bytes memory out) = address(this).call(abi.encodeCall(this.tryBuy, (plan, amountBps)));
        if (out.length == 68 && bytes4(out) == BuyResult.selector) {
            bytes memory body = new bytes(64);
            for (uint256 i = 0; i < 64; i++) body[i] = out[i + 4];
            (ok, received) = abi.decode(body, (bool, uint256));
        }
    }

    /// Spend `amountBps` of the pair's quote reserve in the quote token
    /// (wrapping native currency, buying a stablecoin first when the quote
    /// is one; a V4 pool's native currency is spent as it is); false when
    /// there is nothing to spend.
    function fund(Plan memory plan, uint256 amountBps, Outcome memory o) internal returns (bool) {
        o.amountIn = (reserveOf(venue(plan), plan.quote, plan.token) * amountBps) / 10000;
        if (o.amountIn == 0) return false;
        if (plan.quote == plan.wrapped) {
            IWrappedNative(plan.wrapped).deposit{value: o.amountIn}();
        } else if (plan.quote != address(0)) {
            o.amountIn = acquireQuote(plan, o.amountIn);
        }
        return o.amountIn != 0;
    }

    /// Buy about `wanted` of the quote with wrapped native on the price pair; what arrived.
    function acquireQuote(Plan memory plan, uint256 wanted) internal returns (uint256) {
        if (plan.priceKind == V3) {
            uint256 held = tokenBalance(plan.quote, address(this));
            bool zeroForOne = plan.wrapped < plan.quote;
            (bool ok, ) = runV3(plan.pricePair, plan.wrapped, zeroForOne, -int256(wanted), 0, plan.wrapped);
            uint256 now_ = tokenBalance(plan.quote, address(this));
            return ok && now_ > held ? now_ - held : 0;
        }
        // A V2 pair's exact input for `wanted` (a Solidly-style pool's
        // about as much: what arrives is what counts).
        bool solidly = plan.priceKind == SOLIDLY;
        uint256 feeBps = solidly ? 30 : plan.priceFeeBps;
        Leg memory leg = Leg(plan.pricePair, plan.wrapped, plan.quote, 0, feeBps, 0, 0, false, solidly);
        loadReserves(leg);
        if (wanted >= leg.reserveOut) return 0;
        uint256 wrappedIn = (leg.reserveIn * wanted * 10000) / ((leg.reserveOut - wanted) * (10000 - feeBps)) + 1;
        IWrappedNative(plan.wrapped).deposit{value: wrappedIn}();
        Venue memory priceVenue = Venue(plan.pricePair, solidly ? SOLIDLY : V2, plan.priceFeeBps, 0, address(0));
        Probe memory bought = swapIn(priceVenue, plan.wrapped, plan.quote, wrappedIn);
        return bought.ok ? bought.received : 0;
    }

    function buyStep(Plan memory plan, Outcome memory o) internal {
        Probe memory buy = swapIn(venue(plan), plan.quote, plan.token, o.amountIn);
        o.buyOk = buy.ok;
        o.buyRevert = buy.revertData;
        o.expectedBuy = buy.expected;
        o.received = buy.received;
        o.buyGas = buy.gasUsed;
    }

    function transferStep(Plan memory plan, Outcome memory o) internal {
        o.transferSent = o.received / 10;
        Probe memory t = runProbe(abi.encodeCall(this.probeTransfer, (plan.token, plan.recipient, o.transferSent)));
        o.transferOk = t.ok;
        o.transferRevert = t.revertData;
        o.transferReceived = t.received;
    }

    function sellStep(Plan memory plan, Outcome memory o) internal {
        o.sellAmount = o.received;
        Probe memory sell = sellProbe(plan, o.received);
        o.sellOk = sell.ok;
        o.sellRevert = sell.revertData;
        o.expectedSell = sell.expected;
        o.sellReceived = sell.received;
        o.sellGas = sell.gasUsed;
        if (sell.ok) {
            o.maxSellable = o.received;
            return;
        }
        uint256 lo = 0;
        uint256 hi = o.received;
        for (uint256 i = 0; i < plan.searchSteps && hi - lo > 1; i++) {
            uint256 mid = lo + (hi - lo) / 2;
            if (sellProbe(plan, mid).ok) lo = mid;
            else hi = mid;
        }
        o.maxSellable = lo;
    }
}
