// SPDX-License-Identifier: MIT

// Transfer validation module (upgradeable). Deployed behind an ERC1967 proxy.

pragma solidity ^0.8.19;

contract ValidatorLogic {
    address public owner;
    mapping(address => bool) public blocked;

    bool private _initialized;

    event OwnerSet(address indexed owner);
    event BlockedSet(address indexed account, bool value);

    function initialize(address owner_) external {
        require(!_initialized, "Already initialized");
        _initialized = true;
        owner = owner_;
        emit OwnerSet(owner_);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Not owner");
        _;
    }

    function setBlocked(address account, bool value) external onlyOwner {
        blocked[account] = value;
        emit BlockedSet(account, value);
    }

    function validate(address from, address to, uint256) external view {
        require(!blocked[from] && !blocked[to], "Transfer rejected");
    }
}
