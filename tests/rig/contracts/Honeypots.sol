// SPDX-License-Identifier: Apache-2.0
// The project's own trade-behaviour test tokens for the simulation rig. The
// owner (deployer) is exempt from every rule so the rig can add liquidity
// and distribute tokens; `setPair` tells a token which address is its pool.
pragma solidity ^0.8.20;

import "./Tokens.sol";

abstract contract PairAware is BaseToken, Owned {
    address public pair;

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function exempt(address from, address to) internal view returns (bool) {
        return from == owner || to == owner;
    }
}

/// Selling (sending to the pair) always reverts.
contract SellRevertToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to)) require(to != pair, "sell not allowed");
        super._transfer(from, to, value);
    }
}

/// Only whitelisted addresses may sell.
contract WhitelistSellToken is PairAware {
    mapping(address => bool) public canSell;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function setCanSell(address account, bool allowed) external onlyOwner {
        canSell[account] = allowed;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair) require(canSell[from], "not whitelisted");
        super._transfer(from, to, value);
    }
}

/// 99% of every sell goes to the owner.
contract HighSellTaxToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair) {
            uint256 tax = (value * 99) / 100;
            super._transfer(from, owner, tax);
            value -= tax;
        }
        super._transfer(from, to, value);
    }
}

/// Every buyer is blacklisted on purchase and can never move the tokens again.
contract BuyerTrapToken is PairAware {
    mapping(address => bool) public trapped;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        require(!trapped[from], "blacklisted");
        if (!exempt(from, to) && from == pair) trapped[to] = true;
        super._transfer(from, to, value);
    }
}

/// Sells above a tiny maximum revert.
contract MaxSellToken is PairAware {
    uint256 public maxSell;

    constructor(string memory n, string memory s, uint256 supply, uint256 maxSell_) BaseToken(n, s, 18, supply) {
        maxSell = maxSell_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair) require(value <= maxSell, "exceeds max sell");
        super._transfer(from, to, value);
    }
}

/// Buying is impossible until the owner enables trading.
contract TradingGateToken is PairAware {
    bool public tradingEnabled;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function enableTrading() external onlyOwner {
        tradingEnabled = true;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to)) require(tradingEnabled, "trading not enabled");
        super._transfer(from, to, value);
    }
}

/// A legitimate fee-on-transfer token: 3% of every transfer goes to a
/// treasury fixed at deployment. No owner, no setters.
contract FeeOnTransferToken is BaseToken {
    address public immutable treasury;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {
        treasury = msg.sender;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from != treasury && to != treasury) {
            uint256 fee = (value * 3) / 100;
            super._transfer(from, treasury, fee);
            value -= fee;
        }
        super._transfer(from, to, value);
    }
}

/// 5% of every buy (from the pool) and every sell (to the pool) goes to the owner.
contract SwapTaxToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && (from == pair || to == pair)) {
            uint256 tax = (value * 5) / 100;
            super._transfer(from, owner, tax);
            value -= tax;
        }
        super._transfer(from, to, value);
    }
}
