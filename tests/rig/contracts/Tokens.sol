// SPDX-License-Identifier: Apache-2.0
// The project's own test contracts for the risk-analysis rig. Each token is
// a minimal ERC-20 with exactly the behaviour one risk signal looks for.
pragma solidity ^0.8.20;

contract BaseToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _mint(msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }
}

/// A plain token with no owner and no privileged functions.
contract PlainToken is BaseToken {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}
}

/// A token whose name and symbol are bytes32 (old-style, like MKR).
contract Bytes32Token {
    bytes32 public name = "Old Style";
    bytes32 public symbol = "OLD";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract Owned {
    address public owner;
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }
}

/// The owner can mint without limit.
contract MintableToken is BaseToken, Owned {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }
}

/// The owner can stop any address from moving tokens.
contract BlacklistToken is BaseToken, Owned {
    mapping(address => bool) public isBlacklisted;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function setBlacklist(address account, bool blocked) external onlyOwner {
        isBlacklisted[account] = blocked;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!isBlacklisted[from] && !isBlacklisted[to], "blacklisted");
        super._transfer(from, to, value);
    }
}

/// The owner can stop all transfers.
contract PausableToken is BaseToken, Owned {
    bool public paused;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function pause() external onlyOwner {
        paused = true;
    }

    function unpause() external onlyOwner {
        paused = false;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!paused, "paused");
        super._transfer(from, to, value);
    }
}

/// Ownable, with the owner renounced after deployment by the rig.
contract RenounceableToken is BaseToken, Owned {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}
}

/// The implementation behind an EIP-1967 proxy: storage is initialised
/// through `initialize`, not a constructor.
contract UpgradeableTokenLogic {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    address public owner;
    event Transfer(address indexed from, address indexed to, uint256 value);

    function initialize(string memory n, string memory s, uint256 supply, address holder) external {
        require(owner == address(0), "initialised");
        name = n;
        symbol = s;
        decimals = 18;
        owner = holder;
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

/// A minimal EIP-1967 transparent-style proxy: implementation and admin in
/// the standard slots, everything else delegated.
contract TestProxy {
    event Upgraded(address indexed implementation);

    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    constructor(address implementation, address admin, bytes memory init) {
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
            sstore(ADMIN_SLOT, admin)
        }
        (bool ok, ) = implementation.delegatecall(init);
        require(ok, "init failed");
    }

    function upgradeTo(address implementation) external {
        address admin;
        assembly {
            admin := sload(ADMIN_SLOT)
        }
        require(msg.sender == admin, "not admin");
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
        }
        emit Upgraded(implementation);
    }

    fallback() external payable {
        assembly {
            let implementation := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}

/// A contract that is not a token at all.
contract NotAToken {
    uint256 public count;

    function increment() external {
        count += 1;
    }
}

/// A USD stablecoin for pricing (6 decimals, like USDC).
contract TestUSD is BaseToken {
    constructor(uint256 supply) BaseToken("Test USD", "TUSD", 6, supply) {}
}
