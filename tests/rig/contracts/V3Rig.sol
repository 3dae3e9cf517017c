// SPDX-License-Identifier: Apache-2.0
// What the rig needs around the real Uniswap V3 and PancakeSwap V3
// artifacts: PancakeSwap's pool deployer (npm ships the factory and the
// pool but not the deployer), and a helper that adds liquidity straight to
// a V3-style pool (PancakeSwap ships no position manager).
pragma solidity ^0.8.20;

import "./Tokens.sol";

/// PancakeSwap V3's pool deployer: CREATE2 of the pool's creation code
/// (set as the code of `codeHolder` by anvil_setCode) with the salt the
/// real deployer uses, answering `parameters()` to the pool's constructor.
contract RigPancakeDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    Parameters public parameters;
    address public immutable codeHolder;
    address public factoryAddress;

    constructor(address codeHolder_) {
        codeHolder = codeHolder_;
    }

    function setFactoryAddress(address factory) external {
        require(factoryAddress == address(0), "set");
        factoryAddress = factory;
    }

    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing)
        external
        returns (address pool)
    {
        require(msg.sender == factoryAddress, "factory only");
        parameters = Parameters(factory, token0, token1, fee, tickSpacing);
        bytes memory code = codeHolder.code;
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly {
            pool := create2(0, add(code, 32), mload(code), salt)
        }
        require(pool != address(0), "create2");
        delete parameters;
    }
}

interface IV3MintablePool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256, uint256);
}

/// Adds liquidity straight to a V3-style pool from the tokens it holds
/// (the position belongs to `recipient`), paying in the mint callback.
contract RigV3Liquidity {
    address private pool;

    function add(address pool_, address recipient, int24 tickLower, int24 tickUpper, uint128 amount) external {
        pool = pool_;
        IV3MintablePool(pool_).mint(recipient, tickLower, tickUpper, amount, "");
        pool = address(0);
    }

    function pay(uint256 owed0, uint256 owed1) internal {
        require(msg.sender == pool, "pool only");
        if (owed0 > 0) BaseToken(IV3MintablePool(pool).token0()).transfer(pool, owed0);
        if (owed1 > 0) BaseToken(IV3MintablePool(pool).token1()).transfer(pool, owed1);
    }

    function uniswapV3MintCallback(uint256 owed0, uint256 owed1, bytes calldata) external {
        pay(owed0, owed1);
    }

    function pancakeV3MintCallback(uint256 owed0, uint256 owed1, bytes calldata) external {
        pay(owed0, owed1);
    }
}
