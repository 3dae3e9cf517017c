// SPDX-License-Identifier: Apache-2.0
// The project's pool lens. Its runtime code is injected with an eth_call
// state override at a fresh address: in one call it reads, for each
// Uniswap-V3-style pool asked about, what takes several dependent reads
// from outside — the price and active liquidity, the initialized ticks near
// the price (from the tick bitmap), the pool's token balances, and the
// active liquidity of the position-manager NFTs some holders own. A Uniswap
// V4 pool (a pool id in the singleton PoolManager) is read the same way
// from the manager's storage through `extsload`; it has no balances of its
// own and its positions are not enumerable per holder. It only reads;
// nothing is sent, and no state changes.
pragma solidity ^0.8.20;

interface IBalanceLike {
    function balanceOf(address) external view returns (uint256);
}

interface IExtsloadLike {
    function extsload(bytes32 slot) external view returns (bytes32);
}

interface IEnumerableNftLike {
    function balanceOf(address) external view returns (uint256);
    function tokenOfOwnerByIndex(address, uint256) external view returns (uint256);
}

contract PoolLens {
    /// A pool, and the position manager whose NFTs hold its LP positions
    /// (zero: none); a V4 pool: the PoolManager, the pool id and its tick spacing.
    struct Query {
        address pool;
        address positionManager;
        bytes32 poolId;
        int24 spacing;
    }

    struct TickNet {
        int24 tick;
        int128 liquidityNet;
    }

    struct View {
        bool ok;
        uint160 sqrtPriceX96;
        int24 tick;
        uint128 liquidity;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
        uint256 balance0;
        uint256 balance1;
        /// Initialized ticks within `span` ticks of the current one, in order.
        TickNet[] ticks;
        /// Per holder: the active liquidity of its positions in this pool;
        /// UNKNOWN when its positions could not be counted.
        uint256[] held;
    }

    uint256 constant UNKNOWN = type(uint256).max;
    /// Where the V4 PoolManager keeps its pools' state (`Pool.State` mapping), and offsets into a state.
    uint256 constant V4_POOLS_SLOT = 6;
    uint256 constant V4_LIQUIDITY = 3;
    uint256 constant V4_TICKS = 4;
    uint256 constant V4_BITMAP = 5;

    /// Read every pool of `queries`; a pool that cannot be read has `ok` false.
    function inspect(Query[] calldata queries, address[] calldata holders, int24 span, uint256 maxPositions)
        external
        view
        returns (View[] memory views)
    {
        views = new View[](queries.length);
        for (uint256 i = 0; i < queries.length; i++) {
            try this.inspectOne(queries[i], holders, span, maxPositions) returns (View memory v) {
                views[i] = v;
            } catch {}
        }
    }

    function inspectOne(Query calldata q, address[] calldata holders, int24 span, uint256 maxPositions)
        external
        view
        returns (View memory v)
    {
        if (q.poolId != bytes32(0)) return inspectV4(q, holders.length, span);
        uint256[] memory slot0 = words(q.pool, abi.encodeWithSelector(0x3850c7bd), 2);
        v.sqrtPriceX96 = uint160(slot0[0]);
        v.tick = int24(int256(slot0[1]));
        v.liquidity = uint128(words(q.pool, abi.encodeWithSelector(0x1a686502), 1)[0]);
        v.token0 = address(uint160(words(q.pool, abi.encodeWithSelector(0x0dfe1681), 1)[0]));
        v.token1 = address(uint160(words(q.pool, abi.encodeWithSelector(0xd21220a7), 1)[0]));
        v.fee = uint24(words(q.pool, abi.encodeWithSelector(0xddca3f43), 1)[0]);
        v.tickSpacing = int24(int256(words(q.pool, abi.encodeWithSelector(0xd0c93a7c), 1)[0]));
        v.balance0 = balanceOf(v.token0, q.pool);
        v.balance1 = balanceOf(v.token1, q.pool);
        v.ticks = ticksNear(q.pool, 0, v.tick, v.tickSpacing, span);
        v.held = new uint256[](holders.length);
        for (uint256 i = 0; i < holders.length; i++) {
            v.held[i] = q.positionManager == address(0) ? UNKNOWN : activeLiquidity(q.positionManager, holders[i], v, maxPositions);
        }
        v.ok = true;
    }

    /// A V4 pool: price, tick and fee from its slot0, active liquidity, ticks near the price.
    function inspectV4(Query calldata q, uint256 holders, int24 span) internal view returns (View memory v) {
        bytes32 state = keccak256(abi.encode(q.poolId, V4_POOLS_SLOT));
        uint256 slot0 = uint256(load(q.pool, state));
        v.sqrtPriceX96 = uint160(slot0);
        require(v.sqrtPriceX96 != 0, "not initialized");
        v.tick = int24(uint24(slot0 >> 160));
        v.fee = uint24(slot0 >> 208);
        v.liquidity = uint128(uint256(load(q.pool, bytes32(uint256(state) + V4_LIQUIDITY))));
        v.tickSpacing = q.spacing;
        v.ticks = ticksNear(q.pool, state, v.tick, v.tickSpacing, span);
        v.held = new uint256[](holders);
        for (uint256 i = 0; i < holders; i++) v.held[i] = UNKNOWN;
        v.ok = true;
    }

    function load(address manager, bytes32 slot) internal view returns (bytes32) {
        return IExtsloadLike(manager).extsload(slot);
    }

    /// A word of the tick bitmap: a V3 pool's `tickBitmap`, or a V4 pool's from `state`.
    function bitmapWord(address pool, bytes32 state, int16 word) internal view returns (uint256) {
        if (state == bytes32(0)) return words(pool, abi.encodeWithSelector(0x5339c296, word), 1)[0];
        return uint256(load(pool, keccak256(abi.encode(word, uint256(state) + V4_BITMAP))));
    }

    /// An initialized tick's net liquidity: a V3 pool's `ticks`, or a V4 pool's from `state`.
    function liquidityNet(address pool, bytes32 state, int24 tick) internal view returns (int128) {
        if (state == bytes32(0)) return int128(int256(words(pool, abi.encodeWithSelector(0xf30dba93, tick), 2)[1]));
        // liquidityGross in the low 128 bits, liquidityNet in the high.
        int256 info = int256(uint256(load(pool, keccak256(abi.encode(tick, uint256(state) + V4_TICKS)))));
        return int128(info >> 128);
    }

    /// The first `count` words a view call answers; reverts when it fails or answers fewer.
    function words(address target, bytes memory data, uint256 count) internal view returns (uint256[] memory out) {
        (bool ok, bytes memory answer) = target.staticcall(data);
        require(ok && answer.length >= 32 * count, "read failed");
        out = new uint256[](count);
        for (uint256 i = 0; i < count; i++) {
            uint256 w;
            assembly {
                w := mload(add(answer, add(32, mul(32, i))))
            }
            out[i] = w;
        }
    }

    function balanceOf(address token, address holder) internal view returns (uint256 value) {
        (bool ok, bytes memory answer) = token.staticcall(abi.encodeCall(IBalanceLike.balanceOf, (holder)));
        if (ok && answer.length >= 32) value = abi.decode(answer, (uint256));
    }

    function floorDiv(int24 a, int24 b) internal pure returns (int24 q) {
        q = a / b;
        if (a < 0 && a % b != 0) q--;
    }

    /// Where ticks are read: a V3 pool, or a V4 pool's state in its manager (`state` not zero).
    struct TickSource {
        address pool;
        bytes32 state;
        int24 spacing;
    }

    /// The initialized ticks between `tick - span` and `tick + span`, read
    /// from the bitmap (of a V4 pool whose state is at `state`, when not zero).
    function ticksNear(address pool, bytes32 state, int24 tick, int24 spacing, int24 span)
        internal
        view
        returns (TickNet[] memory found)
    {
        require(spacing > 0, "spacing");
        TickSource memory source = TickSource(pool, state, spacing);
        int24 lo = floorDiv(tick - span, spacing);
        int24 hi = floorDiv(tick + span, spacing);
        found = new TickNet[](uint256(int256(hi - lo + 1)));
        uint256 n = 0;
        for (int24 word = lo >> 8; word <= hi >> 8; word++) {
            n = collect(source, word, lo, hi, found, n);
        }
        assembly {
            mstore(found, n)
        }
    }

    /// Add the initialized ticks of bitmap word `word` within [lo, hi] (compressed) to `found` from `n`.
    function collect(TickSource memory source, int24 word, int24 lo, int24 hi, TickNet[] memory found, uint256 n)
        internal
        view
        returns (uint256)
    {
        uint256 bits = bitmapWord(source.pool, source.state, int16(word));
        for (uint256 bit = 0; bits != 0 && bit < 256; bit++) {
            if (bits & (uint256(1) << bit) == 0) continue;
            int24 compressed = word * 256 + int24(int256(bit));
            if (compressed < lo || compressed > hi) continue;
            int24 t = compressed * source.spacing;
            found[n++] = TickNet(t, liquidityNet(source.pool, source.state, t));
        }
        return n;
    }

    /// The active liquidity of `holder`'s position NFTs in the pool `v` describes.
    function activeLiquidity(address manager, address holder, View memory v, uint256 maxPositions)
        internal
        view
        returns (uint256 sum)
    {
        (bool ok, bytes memory answer) = manager.staticcall(abi.encodeCall(IEnumerableNftLike.balanceOf, (holder)));
        if (!ok || answer.length < 32) return holder == address(0) ? 0 : UNKNOWN;
        uint256 count = abi.decode(answer, (uint256));
        if (count > maxPositions) return UNKNOWN;
        for (uint256 i = 0; i < count; i++) {
            (bool found, bytes memory id) =
                manager.staticcall(abi.encodeCall(IEnumerableNftLike.tokenOfOwnerByIndex, (holder, i)));
            if (!found || id.length < 32) return UNKNOWN;
            // positions(tokenId): nonce, operator, token0, token1, fee, tickLower, tickUpper, liquidity, …
            uint256[] memory p = words(manager, abi.encodeWithSelector(0x99fbab88, abi.decode(id, (uint256))), 8);
            if (address(uint160(p[2])) != v.token0 || address(uint160(p[3])) != v.token1 || uint24(p[4]) != v.fee) continue;
            (int24 lower, int24 upper) = (int24(int256(p[5])), int24(int256(p[6])));
            if (lower <= v.tick && v.tick < upper) sum += uint128(p[7]);
        }
    }
}
