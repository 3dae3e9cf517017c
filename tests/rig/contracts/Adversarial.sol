// SPDX-License-Identifier: Apache-2.0
// The adversarial corpus: tokens written the way real scams hide their
// powers (harmless names, private gatekeepers) and real legitimate tokens
// protect their launch (cooldowns, one sell per block, limits), so the
// service must judge them by what they do. The owner (deployer) is exempt
// from trading rules, as in Honeypots.sol.
pragma solidity ^0.8.20;

import "./Honeypots.sol";

/// An owner-only mint behind a harmless name.
contract RewardSyncToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function syncRewards(address account, uint256 amount) external onlyOwner {
        _mint(account, amount);
    }
}

/// A function called `mint` that mints nothing (it only logs).
contract FakeMintToken is PairAware {
    event MintRequested(address to, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function mint(address to, uint256 amount) external onlyOwner {
        emit MintRequested(to, amount);
    }
}

/// A blacklist behind a harmless name: flagged holders cannot move tokens.
contract OptimizerToken is PairAware {
    mapping(address => bool) private optimized;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function optimize(address account, bool on) external onlyOwner {
        optimized[account] = on;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!optimized[from], "optimizing");
        super._transfer(from, to, value);
    }
}

/// A 2 % sell fee the owner can raise to 100 % through a harmless name.
contract ConfigurableFeeToken is PairAware {
    uint256 private sellBps = 200;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function configure(uint256 bps) external onlyOwner {
        require(bps <= 10000, "bps");
        sellBps = bps;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair) {
            uint256 fee = (value * sellBps) / 10000;
            super._transfer(from, owner, fee);
            value -= fee;
        }
        super._transfer(from, to, value);
    }
}

/// The owner can move any holder's tokens to itself ("rescue").
contract RescueToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function rescue(address from, uint256 amount) external onlyOwner {
        super._transfer(from, owner, amount);
    }
}

/// The owner can burn any holder's tokens ("rebalance").
contract RebalanceToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function rebalance(address from, uint256 amount) external onlyOwner {
        balanceOf[from] -= amount;
        totalSupply -= amount;
        emit Transfer(from, address(0), amount);
    }
}

/// A legitimate anti-bot cooldown: a wallet may sell only `cooldown`
/// seconds after its last buy.
contract CooldownToken is PairAware {
    uint256 public immutable cooldown;
    mapping(address => uint256) public lastBuy;

    constructor(string memory n, string memory s, uint256 supply, uint256 cooldown_) BaseToken(n, s, 18, supply) {
        cooldown = cooldown_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to)) {
            if (from == pair) lastBuy[to] = block.timestamp;
            if (to == pair) require(block.timestamp >= lastBuy[from] + cooldown, "Cooldown: wait before selling");
        }
        super._transfer(from, to, value);
    }
}

/// A legitimate anti-dump rule: one sell per block across all wallets.
contract OneSellPerBlockToken is PairAware {
    uint256 public lastSellBlock;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair) {
            require(block.number > lastSellBlock, "one sell per block");
            lastSellBlock = block.number;
        }
        super._transfer(from, to, value);
    }
}

/// A legitimate fee token: 3 % of every sell to a fixed treasury; the fee
/// setter is capped at 5 %, and ownership is renounced after launch.
contract CappedFeeToken is PairAware {
    address public immutable treasury;
    uint256 public feeBps = 300;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {
        treasury = msg.sender;
    }

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "fee capped at 5%");
        feeBps = bps;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from != treasury && to != treasury && to == pair) {
            uint256 fee = (value * feeBps) / 10000;
            super._transfer(from, treasury, fee);
            value -= fee;
        }
        super._transfer(from, to, value);
    }
}

/// Every wallet the owner distributes to before launch is frozen for good;
/// fresh buyers trade normally, so only real holders find out.
contract HolderTrapToken is PairAware {
    mapping(address => bool) private frozen;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        require(!frozen[from], "frozen");
        super._transfer(from, to, value);
        if (from == owner && pair != address(0) && to != pair) frozen[to] = true;
    }
}

/// A timelock as OpenZeppelin's TimelockController presents itself
/// (`getMinDelay`); the rig's proposer runs its calls as if the delay had passed.
contract MiniTimelock {
    uint256 private immutable minDelay;
    address private immutable proposer;

    constructor(uint256 delay_) {
        minDelay = delay_;
        proposer = msg.sender;
    }

    function getMinDelay() external view returns (uint256) {
        return minDelay;
    }

    function execute(address target, bytes calldata data) external {
        require(msg.sender == proposer, "not the proposer");
        (bool ok, ) = target.call(data);
        require(ok, "call failed");
    }
}

/// Reports no owner (ownership renounced), but a private operator set at
/// deployment mints at will.
contract HiddenOperatorToken is PairAware {
    address private operator;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {
        operator = msg.sender;
    }

    function reward(address to, uint256 amount) external {
        require(msg.sender == operator, "denied");
        _mint(to, amount);
    }
}

/// Ownership renounced, but the deployer can take it back.
contract RestorableToken is PairAware {
    address private immutable deployer;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {
        deployer = msg.sender;
    }

    function restore() external {
        require(msg.sender == deployer, "denied");
        owner = msg.sender;
    }
}

/// A plain token that borrows a well-known token's symbol (set by the rig,
/// with a look-alike letter).
contract LookalikeToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}
}

/// Ownership renounced, but a minter role granted at launch (read as
/// OpenZeppelin's AccessControlEnumerable presents it) mints at will.
contract MinterRoleToken is PairAware {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    address private minter;

    constructor(string memory n, string memory s, uint256 supply, address minter_) BaseToken(n, s, 18, supply) {
        minter = minter_;
    }

    function getRoleMember(bytes32 role, uint256 index) external view returns (address) {
        require(role == MINTER_ROLE && index == 0, "no such member");
        return minter;
    }

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return role == MINTER_ROLE && account == minter;
    }

    function issue(address to, uint256 amount) external {
        require(msg.sender == minter, "not a minter");
        _mint(to, amount);
    }
}

/// Ownership renounced, but a keeper kept in private storage at launch —
/// neither the owner, nor the creator, nor a role any interface names —
/// mints at will. Only the storage layout reveals it.
contract KeeperToken is PairAware {
    address private keeper;

    constructor(string memory n, string memory s, uint256 supply, address keeper_) BaseToken(n, s, 18, supply) {
        keeper = keeper_;
    }

    function distribute(address to, uint256 amount) external {
        require(msg.sender == keeper, "denied");
        _mint(to, amount);
    }
}

/// An outside contract every transfer consults (here it always agrees; its
/// owner could make it refuse).
contract TransferGuard {
    function check(address, address, uint256) external pure returns (bool) {
        return true;
    }
}

/// Asks a guard contract, fixed at deployment, before every transfer.
contract GuardedToken is PairAware {
    TransferGuard private immutable guard;

    constructor(string memory n, string memory s, uint256 supply, address guard_) BaseToken(n, s, 18, supply) {
        guard = TransferGuard(guard_);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(address(guard).code.length == 0 || guard.check(from, to, value), "refused");
        super._transfer(from, to, value);
    }
}

/// Legitimate launch limits: a buy or sell moves at most 1 % of the supply,
/// and a wallet holds at most 1.5 %.
contract LimitedToken is PairAware {
    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && pair != address(0)) {
            if (from == pair || to == pair) require(value <= totalSupply / 100, "max transaction");
            if (to != pair) require(balanceOf[to] + value <= (totalSupply * 15) / 1000, "max wallet");
        }
        super._transfer(from, to, value);
    }
}

/// One call, two effects: `sweep` mints and sets the sell fee to 99% in the
/// same breath.
contract RewardSweepToken is PairAware {
    uint256 public sellFee;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function sweep(address account, uint256 amount) external onlyOwner {
        _mint(account, amount);
        sellFee = 99;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (!exempt(from, to) && to == pair && sellFee > 0) {
            uint256 fee = (value * sellFee) / 100;
            super._transfer(from, owner, fee);
            value -= fee;
        }
        super._transfer(from, to, value);
    }
}

/// A gatekeeper no storage slot or interface names: the developer's
/// address is a constant in the code, compared with the caller; ownership
/// is renounced, and the developer can still mint.
contract DevConstantToken is PairAware {
    address private constant DEV = 0x5C0Dec0dE5c0dec0De5C0dec0De5C0dec0De5C0D;

    constructor(string memory n, string memory s, uint256 supply) BaseToken(n, s, 18, supply) {}

    function syncBalances(address to, uint256 amount) external {
        require(msg.sender == DEV, "!");
        _mint(to, amount);
    }
}
