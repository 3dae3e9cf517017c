pragma solidity ^0.5.16;
pragma experimental ABIEncoderV2;

// A governance token written the way Compound's and Uniswap's are: SafeMath
// pasted in, 96-bit balances, and a minter who may mint at most 2% of the
// supply, and only once a year (mintingAllowedAfter moves a year ahead at
// every mint). The minter here is the deployer's key; minting opens at
// deployment.

library SafeMath {
    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 c = a + b;
        require(c >= a, "SafeMath: addition overflow");
        return c;
    }

    function sub(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b <= a, "SafeMath: subtraction overflow");
        return a - b;
    }

    function mul(uint256 a, uint256 b) internal pure returns (uint256) {
        if (a == 0) {
            return 0;
        }
        uint256 c = a * b;
        require(c / a == b, "SafeMath: multiplication overflow");
        return c;
    }

    function div(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b > 0, "SafeMath: division by zero");
        return a / b;
    }
}

contract CappedMintGovToken {
    string public constant name = "Capped Governance";
    string public constant symbol = "CGOV";
    uint8 public constant decimals = 18;

    uint public totalSupply = 1_000_000e18;

    address public minter;
    uint public mintingAllowedAfter;
    uint32 public constant minimumTimeBetweenMints = 1 days * 365;
    uint8 public constant mintCap = 2;

    mapping (address => mapping (address => uint96)) internal allowances;
    mapping (address => uint96) internal balances;

    event MinterChanged(address minter, address newMinter);
    event Transfer(address indexed from, address indexed to, uint256 amount);
    event Approval(address indexed owner, address indexed spender, uint256 amount);

    constructor() public {
        balances[msg.sender] = uint96(totalSupply);
        emit Transfer(address(0), msg.sender, totalSupply);
        minter = msg.sender;
        emit MinterChanged(address(0), msg.sender);
        mintingAllowedAfter = block.timestamp;
    }

    function setMinter(address minter_) external {
        require(msg.sender == minter, "CGOV::setMinter: only the minter can change the minter address");
        emit MinterChanged(minter, minter_);
        minter = minter_;
    }

    function mint(address dst, uint rawAmount) external {
        require(msg.sender == minter, "CGOV::mint: only the minter can mint");
        require(block.timestamp >= mintingAllowedAfter, "CGOV::mint: minting not allowed yet");
        require(dst != address(0), "CGOV::mint: cannot transfer to the zero address");

        mintingAllowedAfter = SafeMath.add(block.timestamp, minimumTimeBetweenMints);

        uint96 amount = safe96(rawAmount, "CGOV::mint: amount exceeds 96 bits");
        require(amount <= SafeMath.div(SafeMath.mul(totalSupply, mintCap), 100), "CGOV::mint: exceeded mint cap");
        totalSupply = safe96(SafeMath.add(totalSupply, amount), "CGOV::mint: totalSupply exceeds 96 bits");

        balances[dst] = add96(balances[dst], amount, "CGOV::mint: transfer amount overflows");
        emit Transfer(address(0), dst, amount);
    }

    function allowance(address account, address spender) external view returns (uint) {
        return allowances[account][spender];
    }

    function approve(address spender, uint rawAmount) external returns (bool) {
        uint96 amount;
        if (rawAmount == uint(-1)) {
            amount = uint96(-1);
        } else {
            amount = safe96(rawAmount, "CGOV::approve: amount exceeds 96 bits");
        }
        allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function balanceOf(address account) external view returns (uint) {
        return balances[account];
    }

    function transfer(address dst, uint rawAmount) external returns (bool) {
        uint96 amount = safe96(rawAmount, "CGOV::transfer: amount exceeds 96 bits");
        _transferTokens(msg.sender, dst, amount);
        return true;
    }

    function transferFrom(address src, address dst, uint rawAmount) external returns (bool) {
        address spender = msg.sender;
        uint96 spenderAllowance = allowances[src][spender];
        uint96 amount = safe96(rawAmount, "CGOV::approve: amount exceeds 96 bits");

        if (spender != src && spenderAllowance != uint96(-1)) {
            uint96 newAllowance = sub96(spenderAllowance, amount, "CGOV::transferFrom: transfer amount exceeds spender allowance");
            allowances[src][spender] = newAllowance;
            emit Approval(src, spender, newAllowance);
        }

        _transferTokens(src, dst, amount);
        return true;
    }

    function _transferTokens(address src, address dst, uint96 amount) internal {
        require(src != address(0), "CGOV::_transferTokens: cannot transfer from the zero address");
        require(dst != address(0), "CGOV::_transferTokens: cannot transfer to the zero address");

        balances[src] = sub96(balances[src], amount, "CGOV::_transferTokens: transfer amount exceeds balance");
        balances[dst] = add96(balances[dst], amount, "CGOV::_transferTokens: transfer amount overflows");
        emit Transfer(src, dst, amount);
    }

    function safe96(uint n, string memory errorMessage) internal pure returns (uint96) {
        require(n < 2**96, errorMessage);
        return uint96(n);
    }

    function add96(uint96 a, uint96 b, string memory errorMessage) internal pure returns (uint96) {
        uint96 c = a + b;
        require(c >= a, errorMessage);
        return c;
    }

    function sub96(uint96 a, uint96 b, string memory errorMessage) internal pure returns (uint96) {
        require(b <= a, errorMessage);
        return a - b;
    }
}
