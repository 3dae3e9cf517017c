// SPDX-License-Identifier: Apache-2.0
// Rig contracts for Uniswap V4 (the real PoolManager comes from
// @uniswap/v4-core): a hook that takes half of what every sell of one
// token pays out, as a hostile launcher's hook could. A hook's permissions
// are the low bits of its address, so the rig copies this code to an
// address with the afterSwap and afterSwapReturnsDelta bits set.
pragma solidity ^0.8.20;

struct RigPoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct RigSwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IRigPoolManager {
    function take(address currency, address to, uint256 amount) external;
}

contract RigSellTaxHook {
    IRigPoolManager immutable manager;
    /// The token whose sells are cut.
    address immutable token;

    constructor(address manager_, address token_) {
        manager = IRigPoolManager(manager_);
        token = token_;
    }

    /// After a swap selling `token` for an exact input: take half of the
    /// output for the hook, and tell the manager so the seller gets the rest.
    function afterSwap(address, RigPoolKey calldata key, RigSwapParams calldata params, int256 delta, bytes calldata)
        external
        returns (bytes4, int128)
    {
        require(msg.sender == address(manager), "manager only");
        address paidIn = params.zeroForOne ? key.currency0 : key.currency1;
        bool exactInput = params.amountSpecified < 0;
        if (paidIn != token || !exactInput) return (this.afterSwap.selector, 0);
        // Exact input: the unspecified currency is the output.
        bool outIs0 = !params.zeroForOne;
        int128 out = outIs0 ? int128(delta >> 128) : int128(delta);
        if (out <= 0) return (this.afterSwap.selector, 0);
        uint256 cut = uint256(uint128(out)) / 2;
        manager.take(outIs0 ? key.currency0 : key.currency1, address(this), cut);
        return (this.afterSwap.selector, int128(uint128(cut)));
    }

    receive() external payable {}
}
