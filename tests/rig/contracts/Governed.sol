// SPDX-License-Identifier: MIT
// An upgradeable token governed as OpenZeppelin 5 deploys one: a
// TransparentUpgradeableProxy creates its own ProxyAdmin (the EIP-1967
// admin), owned by `initialOwner` — a TimelockController with a delay, or
// one key. Who can replace the code is whoever controls that ProxyAdmin.
pragma solidity ^0.8.20;

import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

contract GovernedTokenProxy is TransparentUpgradeableProxy {
    constructor(address logic, address initialOwner, bytes memory data)
        payable
        TransparentUpgradeableProxy(logic, initialOwner, data)
    {}
}

/// A TimelockController whose `admin` proposes and executes.
contract GovernanceTimelock is TimelockController {
    constructor(uint256 minDelay, address admin)
        TimelockController(minDelay, _one(admin), _one(admin), admin)
    {}

    function _one(address a) private pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = a;
    }
}
