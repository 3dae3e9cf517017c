// SPDX-License-Identifier: MIT

// Regulated Gold Dollar ($RGD) - Ethereum
// Asset protection as regulators require: the compliance officer can freeze
// an address tied to a court order and wipe its frozen balance.

pragma solidity ^0.8.17;

interface IERC20 {
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function transfer(address recipient, uint256 amount) external returns (bool);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
}

interface IUniswapV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IUniswapV2Router02 {
    function factory() external pure returns (address);
    function WETH() external pure returns (address);
}

contract AssetGuardToken is IERC20 {
    string public constant name = "Regulated Gold Dollar";
    string public constant symbol = "RGD";
    uint8 public constant decimals = 18;

    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowed;
    uint256 private _totalSupply;

    address public owner;
    address public assetProtectionRole;
    mapping(address => bool) internal frozen;

    IUniswapV2Router02 public constant uniswapV2Router = IUniswapV2Router02(0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D);
    address public immutable uniswapV2Pair;

    event AddressFrozen(address indexed addr);
    event AddressUnfrozen(address indexed addr);
    event FrozenAddressWiped(address indexed addr);
    event AssetProtectionRoleSet(address indexed oldRole, address indexed newRole);

    modifier onlyOwner() {
        require(msg.sender == owner, "onlyOwner");
        _;
    }

    modifier onlyAssetProtectionRole() {
        require(msg.sender == assetProtectionRole, "onlyAssetProtectionRole");
        _;
    }

    constructor() {
        owner = msg.sender;
        assetProtectionRole = msg.sender;
        uniswapV2Pair = IUniswapV2Factory(uniswapV2Router.factory()).createPair(address(this), uniswapV2Router.WETH());
        _totalSupply = 1_000_000 * 10**18;
        _balances[msg.sender] = _totalSupply;
        emit Transfer(address(0), msg.sender, _totalSupply);
    }

    function totalSupply() external view override returns (uint256) { return _totalSupply; }
    function balanceOf(address account) external view override returns (uint256) { return _balances[account]; }
    function allowance(address owner_, address spender) external view override returns (uint256) { return _allowed[owner_][spender]; }

    function approve(address spender, uint256 amount) external override returns (bool) {
        require(!frozen[spender] && !frozen[msg.sender], "address frozen");
        _allowed[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external override returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external override returns (bool) {
        require(!frozen[msg.sender], "address frozen");
        require(amount <= _allowed[from][msg.sender], "insufficient allowance");
        _allowed[from][msg.sender] -= amount;
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) internal {
        require(to != address(0), "cannot transfer to address zero");
        require(!frozen[to] && !frozen[from], "address frozen");
        require(amount <= _balances[from], "insufficient funds");
        _balances[from] -= amount;
        _balances[to] += amount;
        emit Transfer(from, to, amount);
    }

    // ASSET PROTECTION FUNCTIONALITY

    function setAssetProtectionRole(address newRole) external {
        require(msg.sender == assetProtectionRole || msg.sender == owner, "only assetProtectionRole or Owner");
        emit AssetProtectionRoleSet(assetProtectionRole, newRole);
        assetProtectionRole = newRole;
    }

    function freeze(address addr) external onlyAssetProtectionRole {
        require(!frozen[addr], "address already frozen");
        frozen[addr] = true;
        emit AddressFrozen(addr);
    }

    function unfreeze(address addr) external onlyAssetProtectionRole {
        require(frozen[addr], "address already unfrozen");
        frozen[addr] = false;
        emit AddressUnfrozen(addr);
    }

    function wipeFrozenAddress(address addr) external onlyAssetProtectionRole {
        require(frozen[addr], "address is not frozen");
        uint256 balance = _balances[addr];
        _balances[addr] = 0;
        _totalSupply -= balance;
        emit FrozenAddressWiped(addr);
        emit Transfer(addr, address(0), balance);
    }

    function isFrozen(address addr) external view returns (bool) {
        return frozen[addr];
    }
}
