// SPDX-License-Identifier: Apache-2.0
// How the trade simulator swaps in each pool family, measuring what it was
// quoted and what arrived:
// - Uniswap-V2-style pairs: tokens sent in, then `swap`;
// - Uniswap-V3-style pools: `swap`, paid in the callback (PancakeSwap V3
//   names its callback differently);
// - Uniswap V4 pools in the singleton PoolManager: `unlock`, then in the
//   callback pay first (sync, transfer, settle), swap what was paid, take;
// - Solidly-style pools (Aerodrome and forks, volatile or stable): as a V2
//   pair, the output priced by the pool's own `getAmountOut`.
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

interface ISolidlyPoolLike {
    function getReserves() external view returns (uint256, uint256, uint256);
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);
}

interface IV3PoolLike {
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// A Uniswap V4 pool's key (currency 0 is native currency).
struct V4PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct V4SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IPoolManagerLike {
    function unlock(bytes calldata data) external returns (bytes memory);
    /// The caller's balance delta: amount0 in the high 128 bits, amount1 in the low; positive is owed to the caller.
    function swap(V4PoolKey memory key, V4SwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
    function extsload(bytes32 slot) external view returns (bytes32);
    /// ERC-6909 claims.
    function balanceOf(address owner, uint256 id) external view returns (uint256);
}

abstract contract PoolSwaps {
    /// Pool families (`Venue.kind`).
    uint256 constant V2 = 0;
    uint256 constant V3 = 1;
    uint256 constant V4 = 2;
    uint256 constant SOLIDLY = 3;
    /// Gas a view read of the token gets: plenty for any balance, and a
    /// token that ends a function it lacks in INVALID (solc 0.4's throw)
    /// burns only this, not all the gas the simulation has left.
    uint256 constant READ_GAS = 500_000;

    uint160 constant MIN_SQRT_LIMIT = 4295128740;
    uint160 constant MAX_SQRT_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// Where a trade happens: a pool (V4: the PoolManager) and its family;
    /// `fee` is a V2 pair's fee in basis points or a V4 pool key's fee,
    /// and `spacing` and `hooks` complete a V4 pool's key.
    struct Venue {
        address pool;
        uint256 kind;
        uint256 fee;
        int24 spacing;
        address hooks;
    }

    /// What a pool's callback is to do: answer a quote by reverting, or
    /// pay what is owed in `token` (`gross` instead, when set: a
    /// fee-on-transfer token's whole amount, of which the pool receives
    /// what it is owed). Only `pool` may call back.
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

    error Quoted(int256 amount0, int256 amount1);
    /// The pool was owed `owed` and received `arrived` (a fee-on-transfer token).
    error ShortPayment(uint256 owed, uint256 arrived);

    struct Probe {
        bool ok;
        bytes revertData;
        uint256 expected;
        uint256 received;
        uint256 gasUsed;
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
        bool solidly;
    }

    /// Native currency paid out by a V4 pool.
    receive() external payable {}

    /// A call this code does not know is let through and answered `true`,
    /// as the wallet it stands in for would let it pass: a token that calls
    /// back into a role it names (a MiniMe controller's `onTransfer`) is not
    /// refused by the stand-in.
    fallback() external payable {
        assembly {
            mstore(0, 1)
            return(0, 32)
        }
    }

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

    function clearPending() internal {
        setPending(Pending(address(0), address(0), address(0), 0, false));
    }

    function amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut, uint256 feeBps) internal pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 withFee = amountIn * (10000 - feeBps);
        return (withFee * reserveOut) / (reserveIn * 10000 + withFee);
    }

    /// A token's balance (native currency: address zero) read without
    /// letting the token revert through us (a token could otherwise forge
    /// our results with its revert data); 0 and false when the read fails.
    function readBalance(address token, address holder) internal view returns (uint256 value, bool ok) {
        if (token == address(0)) return (holder.balance, true);
        (bool success, bytes memory out) = token.staticcall{gas: READ_GAS}(abi.encodeCall(IERC20Like.balanceOf, (holder)));
        if (success && out.length >= 32) (value, ok) = (abi.decode(out, (uint256)), true);
    }

    function tokenBalance(address token, address holder) internal view returns (uint256 value) {
        (value, ) = readBalance(token, holder);
    }

    function loadReserves(Leg memory leg) internal view {
        (uint256 r0, uint256 r1) = pairReserves(leg.pair, leg.solidly);
        leg.inIsToken0 = IPairLike(leg.pair).token0() == leg.tokenIn;
        (leg.reserveIn, leg.reserveOut) = leg.inIsToken0 ? (r0, r1) : (r1, r0);
    }

    /// A pair's recorded reserves (a Solidly-style pool's are uint256).
    function pairReserves(address pair, bool solidly) internal view returns (uint256 r0, uint256 r1) {
        if (solidly) {
            (r0, r1, ) = ISolidlyPoolLike(pair).getReserves();
        } else {
            (uint112 a, uint112 b, ) = IPairLike(pair).getReserves();
            (r0, r1) = (a, b);
        }
    }

    /// What `leg`'s pool pays for `amountIn`: a V2 pair's constant product
    /// after its fee; a Solidly-style pool's own quote (its curve and fee).
    function legOut(Leg memory leg, uint256 amountIn) internal view returns (uint256) {
        if (!leg.solidly) return amountOut(amountIn, leg.reserveIn, leg.reserveOut, leg.feeBps);
        if (amountIn == 0) return 0;
        try ISolidlyPoolLike(leg.pair).getAmountOut(amountIn, leg.tokenIn) returns (uint256 out) {
            return out;
        } catch {
            return 0;
        }
    }

    /// The pool's reserve of `token` (traded against `other`): a V2 pair's
    /// recorded reserve, a V3 pool's balance, a V4 pool's virtual reserve
    /// (its active liquidity at its price: the singleton keeps every pool's
    /// tokens together).
    function reserveOf(Venue memory v, address token, address other) internal view returns (uint256) {
        if (v.kind == V3) return tokenBalance(token, v.pool);
        if (v.kind == V4) return virtualReserve(v, token, other);
        (uint256 r0, uint256 r1) = pairReserves(v.pool, v.kind == SOLIDLY);
        return IPairLike(v.pool).token0() == token ? r0 : r1;
    }

    function v4Key(Venue memory v, address a, address b) internal pure returns (V4PoolKey memory key) {
        (address c0, address c1) = a < b ? (a, b) : (b, a);
        key = V4PoolKey(c0, c1, uint24(v.fee), v.spacing, v.hooks);
    }

    function virtualReserve(Venue memory v, address token, address other) internal view returns (uint256) {
        bytes32 state = keccak256(abi.encode(keccak256(abi.encode(v4Key(v, token, other))), uint256(6)));
        uint256 sqrtPrice = uint160(uint256(IPoolManagerLike(v.pool).extsload(state)));
        uint256 liquidity = uint128(uint256(IPoolManagerLike(v.pool).extsload(bytes32(uint256(state) + 3))));
        if (sqrtPrice == 0) return 0;
        // Token 0: L / √P; token 1: L · √P (√P in Q64.96).
        if (token < other) return (liquidity << 96) / sqrtPrice;
        return sqrtPrice >> 96 > 0 ? liquidity * (sqrtPrice >> 48) >> 48 : (liquidity * sqrtPrice) >> 96;
    }

    /// Swap `amount` of `tokenIn` (already held) for `tokenOut` at `v`.
    function swapIn(Venue memory v, address tokenIn, address tokenOut, uint256 amount) internal returns (Probe memory p) {
        if (v.kind == V3) return swapV3(v.pool, tokenIn, tokenOut, amount);
        if (v.kind == V4) return swapV4(v, tokenIn, tokenOut, amount);
        Leg memory leg = Leg(v.pool, tokenIn, tokenOut, amount, v.fee, 0, 0, false, v.kind == SOLIDLY);
        loadReserves(leg);
        p.expected = legOut(leg, amount);
        uint256 gasStart = gasleft();
        (bool sent, bytes memory sendRevert) = tokenIn.call(abi.encodeCall(IERC20Like.transfer, (v.pool, amount)));
        if (sent) {
            executeSwap(p, leg);
        } else {
            p.revertData = sendRevert;
        }
        p.gasUsed = gasStart - gasleft();
    }

    /// Fees a V2 pair may take, tried in turn when it refuses the configured
    /// one (a fork configured at 25 bps that takes 30): a refusal of the
    /// simulation's own making is not the token's.
    uint256 constant FALLBACK_FEES = 3;

    function fallbackFee(uint256 i) internal pure returns (uint256) {
        return i == 0 ? 30 : i == 1 ? 50 : 100;
    }

    function executeSwap(Probe memory p, Leg memory leg) internal {
        // The reserves again: a token that swaps its collected fees inside
        // its own transfer has moved them, as the router would see.
        loadReserves(leg);
        // What actually arrived, so transfer fees are not mistaken for the pool's price.
        uint256 held = tokenBalance(leg.tokenIn, leg.pair);
        uint256 arrived = held > leg.reserveIn ? held - leg.reserveIn : 0;
        // The token took it all on the way (a 100 % fee): the sell is made
        // and pays nothing, as a router's would, rather than a revert of
        // the pool's for a swap of nothing.
        if (arrived == 0 && leg.amount > 0) {
            p.ok = true;
            return;
        }
        uint256 before = tokenBalance(leg.tokenOut, address(this));
        (bool swapped, bytes memory swapRevert) = swapPair(leg, arrived);
        for (uint256 i = 0; !swapped && !leg.solidly && i < FALLBACK_FEES; i++) {
            if (fallbackFee(i) <= leg.feeBps) continue;
            uint256 configured = leg.feeBps;
            leg.feeBps = fallbackFee(i);
            (swapped, ) = swapPair(leg, arrived);
            if (!swapped) leg.feeBps = configured;
            // Expected at the fee the pair takes, so it is not counted as the token's.
            else p.expected = amountOut(leg.amount, leg.reserveIn, leg.reserveOut, leg.feeBps);
        }
        if (!swapped) {
            p.revertData = swapRevert;
            return;
        }
        p.ok = true;
        uint256 afterSwap = tokenBalance(leg.tokenOut, address(this));
        p.received = afterSwap > before ? afterSwap - before : 0;
    }

    /// Ask `leg`'s pair for what `arrived` buys at the leg's fee.
    function swapPair(Leg memory leg, uint256 arrived) internal returns (bool, bytes memory) {
        uint256 out = legOut(leg, arrived);
        return leg.pair.call(
            abi.encodeCall(IPairLike.swap, (leg.inIsToken0 ? 0 : out, leg.inIsToken0 ? out : 0, address(this), ""))
        );
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
        clearPending();
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
        clearPending();
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
        finish(p, ok, out, tokenOut, before);
    }

    function finish(Probe memory p, bool ok, bytes memory out, address tokenOut, uint256 before) internal view {
        if (!ok) {
            p.revertData = out;
            return;
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
        if (!sent) bubble(reason);
        uint256 arrived = tokenBalance(q.token, q.pool) - before;
        if (arrived < owed) revert ShortPayment(owed, arrived);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        v3Callback(amount0Delta, amount1Delta);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        v3Callback(amount0Delta, amount1Delta);
    }

    /// A V4 swap, as the PoolManager's unlock callback is to run it.
    struct V4Swap {
        V4PoolKey key;
        bool zeroForOne;
        uint256 amount;
        address tokenIn;
        address tokenOut;
        bool quote;
    }

    /// A V4 quote: what the caller would receive, and what left the
    /// PoolManager during the swap besides (a hook's cut taken for itself).
    error V4Quoted(uint256 out, uint256 takenByOthers);

    /// An exact-input V4 swap. "Expected" is the pool's own output before
    /// any hook's cut (what reached the caller, plus what the hook took
    /// out of the PoolManager or as claims during the swap), so a hook that
    /// takes from swaps shows as a tax.
    function swapV4(Venue memory v, address tokenIn, address tokenOut, uint256 amount) internal returns (Probe memory p) {
        V4Swap memory s = V4Swap(v4Key(v, tokenIn, tokenOut), tokenIn < tokenOut, amount, tokenIn, tokenOut, true);
        setPending(Pending(v.pool, address(0), address(0), 0, true));
        (, bytes memory quoted) = v.pool.call(abi.encodeCall(IPoolManagerLike.unlock, (abi.encode(s))));
        if (quoted.length == 68 && bytes4(quoted) == V4Quoted.selector) {
            (uint256 out, uint256 taken) = abi.decode(afterSelector4(quoted), (uint256, uint256));
            p.expected = out + taken;
        }
        s.quote = false;
        setPending(Pending(v.pool, address(0), address(0), 0, false));
        uint256 before = tokenBalance(tokenOut, address(this));
        uint256 gasStart = gasleft();
        (bool ok, bytes memory out) = v.pool.call(abi.encodeCall(IPoolManagerLike.unlock, (abi.encode(s))));
        p.gasUsed = gasStart - gasleft();
        clearPending();
        finish(p, ok, out, tokenOut, before);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        Pending memory q = getPending();
        require(msg.sender == q.pool && q.pool != address(0), "pool manager only");
        IPoolManagerLike manager = IPoolManagerLike(msg.sender);
        V4Swap memory s = abi.decode(data, (V4Swap));
        V4SwapParams memory params = V4SwapParams(s.zeroForOne, 0, sqrtLimit(s.zeroForOne));
        if (q.quote) {
            uint256 held = tokenBalance(s.tokenOut, msg.sender);
            uint256 claims = claimsOf(manager, s.key.hooks, s.tokenOut);
            params.amountSpecified = -int256(s.amount);
            (, uint256 out) = deltas(manager.swap(s.key, params, ""), s.zeroForOne);
            uint256 left = tokenBalance(s.tokenOut, msg.sender);
            uint256 taken = held > left ? held - left : 0;
            uint256 claimed = claimsOf(manager, s.key.hooks, s.tokenOut);
            revert V4Quoted(out, taken + (claimed > claims ? claimed - claims : 0));
        }
        // Pay first, then swap exactly what arrived: a transfer fee is the token's, measured.
        uint256 paid;
        if (s.tokenIn == address(0)) {
            paid = manager.settle{value: s.amount}();
        } else {
            manager.sync(s.tokenIn);
            (bool sent, bytes memory reason) = s.tokenIn.call(abi.encodeCall(IERC20Like.transfer, (msg.sender, s.amount)));
            if (!sent) bubble(reason);
            paid = manager.settle();
        }
        params.amountSpecified = -int256(paid);
        (uint256 spent, uint256 owed) = deltas(manager.swap(s.key, params, ""), s.zeroForOne);
        // A swap stopped by its price limit leaves part of the payment as credit.
        if (spent < paid) manager.take(s.tokenIn, address(this), paid - spent);
        if (owed != 0) manager.take(s.tokenOut, address(this), owed);
        return "";
    }

    /// What a swap's balance delta says was paid in and is owed out.
    function deltas(int256 delta, bool zeroForOne) internal pure returns (uint256 spent, uint256 owed) {
        int128 a0 = int128(delta >> 128);
        int128 a1 = int128(delta);
        (int128 dIn, int128 dOut) = zeroForOne ? (a0, a1) : (a1, a0);
        spent = dIn < 0 ? uint256(uint128(-dIn)) : 0;
        owed = dOut > 0 ? uint256(uint128(dOut)) : 0;
    }

    function claimsOf(IPoolManagerLike manager, address holder, address currency) internal view returns (uint256 value) {
        if (holder == address(0)) return 0;
        try manager.balanceOf(holder, uint256(uint160(currency))) returns (uint256 v) {
            value = v;
        } catch {}
    }

    function bubble(bytes memory reason) internal pure {
        assembly {
            revert(add(reason, 32), mload(reason))
        }
    }

    function afterSelector4(bytes memory data) internal pure returns (bytes memory body) {
        body = new bytes(data.length - 4);
        for (uint256 i = 0; i < body.length; i++) body[i] = data[i + 4];
    }
}
