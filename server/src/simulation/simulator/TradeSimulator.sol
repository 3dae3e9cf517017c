// SPDX-License-Identifier: Apache-2.0
// The project's trade simulator. Its runtime code is injected with an
// eth_call state override at a fresh random address (no transaction is ever
// sent): it buys the token from a Uniswap-V2-style pair with its quote token
// (wrapped native currency, or a stablecoin bought with it first), probes a wallet-to-wallet transfer, sells what it bought, and
// when a full sell fails binary-searches the largest sell that succeeds.
// Every probe runs in a self-call that always reverts, so each starts from
// the same state and leaves none behind.
pragma solidity ^0.8.20;

interface IERC20Like {
    function balanceOf(address) external view returns (uint256);
    function transfer(address, uint256) external returns (bool);
}

interface IWrappedNative {
    function deposit() external payable;
}

interface IPairLike {
    function getReserves() external view returns (uint112, uint112, uint32);
    function token0() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

contract TradeSimulator {
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

    struct Probe {
        bool ok;
        bytes revertData;
        uint256 expected;
        uint256 received;
        uint256 gasUsed;
    }

    error ProbeResult(Probe probe);

    function amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut, uint256 feeBps) internal pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 withFee = amountIn * (10000 - feeBps);
        return (withFee * reserveOut) / (reserveIn * 10000 + withFee);
    }

    struct Leg {
        address pair;
        address tokenIn;
        address tokenOut;
        uint256 amount;
        uint256 feeBps;
        uint256 reserveIn;
        uint256 reserveOut;
        bool inIsToken0;
    }

    /// A token's balance read without letting the token revert through us
    /// (a token could otherwise forge our results with its revert data); 0
    /// and false when the read fails.
    function readBalance(address token, address holder) internal view returns (uint256 value, bool ok) {
        (bool success, bytes memory out) = token.staticcall(abi.encodeCall(IERC20Like.balanceOf, (holder)));
        if (success && out.length >= 32) (value, ok) = (abi.decode(out, (uint256)), true);
    }

    function tokenBalance(address token, address holder) internal view returns (uint256 value) {
        (value, ) = readBalance(token, holder);
    }

    function loadReserves(Leg memory leg) internal view {
        (uint112 r0, uint112 r1, ) = IPairLike(leg.pair).getReserves();
        leg.inIsToken0 = IPairLike(leg.pair).token0() == leg.tokenIn;
        (leg.reserveIn, leg.reserveOut) = leg.inIsToken0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    /// Send `amount` of `tokenIn` (already held) into `pair` and swap for the other token.
    function swapIn(address pair, address tokenIn, address tokenOut, uint256 amount, uint256 feeBps)
        internal
        returns (Probe memory p)
    {
        Leg memory leg = Leg(pair, tokenIn, tokenOut, amount, feeBps, 0, 0, false);
        loadReserves(leg);
        p.expected = amountOut(amount, leg.reserveIn, leg.reserveOut, feeBps);
        uint256 gasStart = gasleft();
        (bool sent, bytes memory sendRevert) = tokenIn.call(abi.encodeCall(IERC20Like.transfer, (pair, amount)));
        if (sent) {
            executeSwap(p, leg);
        } else {
            p.revertData = sendRevert;
        }
        p.gasUsed = gasStart - gasleft();
    }

    function executeSwap(Probe memory p, Leg memory leg) internal {
        // The reserves again: a token that swaps its collected fees inside
        // its own transfer has moved them, as the router would see.
        loadReserves(leg);
        // What actually arrived, so transfer fees are not mistaken for the pool's price.
        uint256 held = tokenBalance(leg.tokenIn, leg.pair);
        uint256 arrived = held > leg.reserveIn ? held - leg.reserveIn : 0;
        uint256 out = amountOut(arrived, leg.reserveIn, leg.reserveOut, leg.feeBps);
        uint256 before = tokenBalance(leg.tokenOut, address(this));
        bytes memory call = abi.encodeCall(
            IPairLike.swap, (leg.inIsToken0 ? 0 : out, leg.inIsToken0 ? out : 0, address(this), "")
        );
        (bool swapped, bytes memory swapRevert) = leg.pair.call(call);
        if (!swapped) {
            p.revertData = swapRevert;
            return;
        }
        p.ok = true;
        uint256 afterSwap = tokenBalance(leg.tokenOut, address(this));
        p.received = afterSwap > before ? afterSwap - before : 0;
    }

    /// A sell of `amount`, undone by its revert.
    function probeSell(address pair, address token, address quote, uint256 amount, uint256 feeBps) external {
        require(msg.sender == address(this), "self only");
        revert ProbeResult(swapIn(pair, token, quote, amount, feeBps));
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

    function sellProbe(address pair, address token, address quote, uint256 amount, uint256 feeBps) internal returns (Probe memory) {
        return runProbe(abi.encodeCall(this.probeSell, (pair, token, quote, amount, feeBps)));
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
        Probe memory sell = swapIn(plan.pair, plan.token, plan.quote, o.received, plan.feeBps);
        o.sellOk = sell.ok;
        o.sellRevert = sell.revertData;
        o.expectedSell = sell.expected;
        o.sellReceived = sell.received;
        o.sellGas = sell.gasUsed;
        if (sell.ok) {
            o.maxSellable = o.received;
        } else if (o.received >= 1000 && swapIn(plan.pair, plan.token, plan.quote, o.received / 1000, plan.feeBps).ok) {
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
    /// is one); false when there is nothing to spend.
    function fund(Plan memory plan, uint256 amountBps, Outcome memory o) internal returns (bool) {
        (uint112 r0, uint112 r1, ) = IPairLike(plan.pair).getReserves();
        o.amountIn = ((IPairLike(plan.pair).token0() == plan.quote ? uint256(r0) : uint256(r1)) * amountBps) / 10000;
        if (o.amountIn == 0) return false;
        if (plan.quote == plan.wrapped) {
            IWrappedNative(plan.wrapped).deposit{value: o.amountIn}();
        } else {
            o.amountIn = acquireQuote(plan, o.amountIn);
        }
        return o.amountIn != 0;
    }

    /// Buy about `wanted` of the quote with wrapped native on the price pair; what arrived.
    function acquireQuote(Plan memory plan, uint256 wanted) internal returns (uint256) {
        Leg memory leg = Leg(plan.pricePair, plan.wrapped, plan.quote, 0, plan.feeBps, 0, 0, false);
        loadReserves(leg);
        if (wanted >= leg.reserveOut) return 0;
        uint256 wrappedIn = (leg.reserveIn * wanted * 10000) / ((leg.reserveOut - wanted) * (10000 - plan.feeBps)) + 1;
        IWrappedNative(plan.wrapped).deposit{value: wrappedIn}();
        Probe memory bought = swapIn(plan.pricePair, plan.wrapped, plan.quote, wrappedIn, plan.feeBps);
        return bought.ok ? bought.received : 0;
    }

    function buyStep(Plan memory plan, Outcome memory o) internal {
        Probe memory buy = swapIn(plan.pair, plan.quote, plan.token, o.amountIn, plan.feeBps);
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
        Probe memory sell = sellProbe(plan.pair, plan.token, plan.quote, o.received, plan.feeBps);
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
            if (sellProbe(plan.pair, plan.token, plan.quote, mid, plan.feeBps).ok) lo = mid;
            else hi = mid;
        }
        o.maxSellable = lo;
    }
}
