// SPDX-License-Identifier: Apache-2.0
// The project's trade simulator. Its runtime code is injected with an
// eth_call state override at a fresh random address (no transaction is ever
// sent): it buys the token from a pool with its quote token (wrapped native
// currency, or a stablecoin bought with it first), probes a wallet-to-wallet
// transfer, sells what it bought, and when a full sell fails binary-searches
// the largest sell that succeeds. Pools are Uniswap-V2-style pairs (tokens
// sent in, then `swap`) or Uniswap-V3-style pools (`swap`, paid in the
// callback; PancakeSwap V3 names its callback differently).
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

interface IV3PoolLike {
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

contract TradeSimulator {
    /// Pool families (`Plan.kind`, `Plan.priceKind`).
    uint256 constant V2 = 0;
    uint256 constant V3 = 1;

    uint160 constant MIN_SQRT_LIMIT = 4295128740;
    uint160 constant MAX_SQRT_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// Where a trade happens: a pool and its family (and a V2 pair's fee).
    struct Venue {
        address pool;
        uint256 kind;
        uint256 feeBps;
    }

    /// What the V3 swap callback is to do: answer a quote by reverting with
    /// the deltas, or pay what is owed in `token` (`gross` instead, when set:
    /// a fee-on-transfer token's whole amount, of which the pool receives what it is owed).
    struct Pending {
        address pool;
        address token;
        address wrapped;
        uint256 gross;
        bool quote;
    }

    /// Where `Pending` is kept: far from slot 0, because the probe runs at
    /// the address of a role that may be a contract with storage of its own.
    bytes32 constant PENDING_SLOT = keccak256("riskintel simulator pending swap");

    function setPending(Pending memory q) internal {
        bytes32 slot = PENDING_SLOT;
        assembly {
            sstore(slot, mload(q))
            sstore(add(slot, 1), mload(add(q, 32)))
            sstore(add(slot, 2), mload(add(q, 64)))
            sstore(add(slot, 3), mload(add(q, 96)))
            sstore(add(slot, 4), mload(add(q, 128)))
        }
    }

    function getPending() internal view returns (Pending memory q) {
        bytes32 slot = PENDING_SLOT;
        assembly {
            mstore(q, sload(slot))
            mstore(add(q, 32), sload(add(slot, 1)))
            mstore(add(q, 64), sload(add(slot, 2)))
            mstore(add(q, 96), sload(add(slot, 3)))
            mstore(add(q, 128), sload(add(slot, 4)))
        }
    }

    error Quoted(int256 amount0, int256 amount1);
    /// The pool was owed `owed` and received `arrived` (a fee-on-transfer token).
    error ShortPayment(uint256 owed, uint256 arrived);
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

    /// Swap `amount` of `tokenIn` (already held) for `tokenOut` at `v`.
    function swapIn(Venue memory v, address tokenIn, address tokenOut, uint256 amount) internal returns (Probe memory p) {
        if (v.kind == V3) return swapV3(v.pool, tokenIn, tokenOut, amount);
        Leg memory leg = Leg(v.pool, tokenIn, tokenOut, amount, v.feeBps, 0, 0, false);
        loadReserves(leg);
        p.expected = amountOut(amount, leg.reserveIn, leg.reserveOut, v.feeBps);
        uint256 gasStart = gasleft();
        (bool sent, bytes memory sendRevert) = tokenIn.call(abi.encodeCall(IERC20Like.transfer, (v.pool, amount)));
        if (sent) {
            executeSwap(p, leg);
        } else {
            p.revertData = sendRevert;
        }
        p.gasUsed = gasStart - gasleft();
    }

    function sqrtLimit(bool zeroForOne) internal pure returns (uint160) {
        return zeroForOne ? MIN_SQRT_LIMIT : MAX_SQRT_LIMIT;
    }

    /// What a V3 swap of `amountSpecified` would pay and owe, undone.
    function quoteV3(address pool, bool zeroForOne, int256 amountSpecified) internal returns (int256 d0, int256 d1) {
        setPending(Pending(pool, address(0), address(0), 0, true));
        (, bytes memory out) = pool.call(
            abi.encodeCall(IV3PoolLike.swap, (address(this), zeroForOne, amountSpecified, sqrtLimit(zeroForOne), ""))
        );
        setPending(Pending(address(0), address(0), address(0), 0, false));
        if (out.length == 68 && bytes4(out) == Quoted.selector) (d0, d1) = abi.decode(afterSelector4(out), (int256, int256));
    }

    function runV3(address pool, address tokenIn, bool zeroForOne, int256 amountSpecified, uint256 gross, address wrapped)
        internal
        returns (bool ok, bytes memory out)
    {
        setPending(Pending(pool, tokenIn, wrapped, gross, false));
        (ok, out) = pool.call(
            abi.encodeCall(IV3PoolLike.swap, (address(this), zeroForOne, amountSpecified, sqrtLimit(zeroForOne), ""))
        );
        setPending(Pending(address(0), address(0), address(0), 0, false));
    }

    /// An exact-input V3 swap. A token that reaches the pool short of what
    /// it owes (a transfer fee) is sent again whole for what does arrive, so
    /// its fee is measured rather than taken for a block; the pool itself
    /// refuses such payments from routers.
    function swapV3(address pool, address tokenIn, address tokenOut, uint256 amount) internal returns (Probe memory p) {
        bool zeroForOne = tokenIn < tokenOut;
        (int256 q0, int256 q1) = quoteV3(pool, zeroForOne, int256(amount));
        int256 quotedOut = zeroForOne ? q1 : q0;
        p.expected = quotedOut < 0 ? uint256(-quotedOut) : 0;
        uint256 before = tokenBalance(tokenOut, address(this));
        uint256 gasStart = gasleft();
        (bool ok, bytes memory out) = runV3(pool, tokenIn, zeroForOne, int256(amount), 0, address(0));
        if (!ok && out.length == 68 && bytes4(out) == ShortPayment.selector) {
            (, uint256 arrived) = abi.decode(afterSelector4(out), (uint256, uint256));
            if (arrived != 0) (ok, out) = runV3(pool, tokenIn, zeroForOne, int256(arrived), amount, address(0));
        }
        p.gasUsed = gasStart - gasleft();
        if (!ok) {
            p.revertData = out;
            return p;
        }
        p.ok = true;
        uint256 afterSwap = tokenBalance(tokenOut, address(this));
        p.received = afterSwap > before ? afterSwap - before : 0;
    }

    function v3Callback(int256 amount0Delta, int256 amount1Delta) internal {
        Pending memory q = getPending();
        require(msg.sender == q.pool && q.pool != address(0), "pool only");
        if (q.quote) revert Quoted(amount0Delta, amount1Delta);
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        uint256 send = q.gross != 0 ? q.gross : owed;
        if (q.token == q.wrapped) {
            uint256 have = tokenBalance(q.token, address(this));
            if (have < send) IWrappedNative(q.token).deposit{value: send - have}();
        }
        uint256 before = tokenBalance(q.token, q.pool);
        (bool sent, bytes memory reason) = q.token.call(abi.encodeCall(IERC20Like.transfer, (q.pool, send)));
        if (!sent) {
            assembly {
                revert(add(reason, 32), mload(reason))
            }
        }
        uint256 arrived = tokenBalance(q.token, q.pool) - before;
        if (arrived < owed) revert ShortPayment(owed, arrived);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        v3Callback(amount0Delta, amount1Delta);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        v3Callback(amount0Delta, amount1Delta);
    }

    function afterSelector4(bytes memory data) internal pure returns (bytes memory body) {
        body = new bytes(data.length - 4);
        for (uint256 i = 0; i < body.length; i++) body[i] = data[i + 4];
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
    }

    function venue(Plan memory plan) internal pure returns (Venue memory) {
        return Venue(plan.pair, plan.kind, plan.feeBps);
    }

    /// The pool's reserve of `token`: a V2 pair's recorded reserve, a V3 pool's balance.
    function reserveOf(Venue memory v, address token) internal view returns (uint256) {
        if (v.kind == V3) return tokenBalance(token, v.pool);
        (uint112 r0, uint112 r1, ) = IPairLike(v.pool).getReserves();
        return IPairLike(v.pool).token0() == token ? uint256(r0) : uint256(r1);
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
    /// is one); false when there is nothing to spend.
    function fund(Plan memory plan, uint256 amountBps, Outcome memory o) internal returns (bool) {
        o.amountIn = (reserveOf(venue(plan), plan.quote) * amountBps) / 10000;
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
        if (plan.priceKind == V3) {
            uint256 held = tokenBalance(plan.quote, address(this));
            bool zeroForOne = plan.wrapped < plan.quote;
            (bool ok, ) = runV3(plan.pricePair, plan.wrapped, zeroForOne, -int256(wanted), 0, plan.wrapped);
            uint256 now_ = tokenBalance(plan.quote, address(this));
            return ok && now_ > held ? now_ - held : 0;
        }
        Leg memory leg = Leg(plan.pricePair, plan.wrapped, plan.quote, 0, plan.priceFeeBps, 0, 0, false);
        loadReserves(leg);
        if (wanted >= leg.reserveOut) return 0;
        uint256 wrappedIn = (leg.reserveIn * wanted * 10000) / ((leg.reserveOut - wanted) * (10000 - plan.priceFeeBps)) + 1;
        IWrappedNative(plan.wrapped).deposit{value: wrappedIn}();
        Probe memory bought = swapIn(Venue(plan.pricePair, V2, plan.priceFeeBps), plan.wrapped, plan.quote, wrappedIn);
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
