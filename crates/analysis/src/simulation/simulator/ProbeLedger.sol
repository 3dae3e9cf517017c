// SPDX-License-Identifier: Apache-2.0
// Follow the value (the privilege probe's ledger): a fresh buyer's trade,
// and a role's call, read as a ledger. Around each, the token balance of
// every address the probe knows (the buyer, the pool, the trade's
// recipient, the token contract, the role, and the addresses the token's
// roles and storage name: `watch`), their native and quote-token balances,
// and the supply are read before and after, so that tokens credited that
// nobody was debited for show as tokens from nothing, and value that ends
// at an address a role chose shows as that address's gain.
pragma solidity ^0.8.20;

import "./TradeSimulator.sol";

interface ISupplyLike {
    function totalSupply() external view returns (uint256);
}

contract ProbeLedger is TradeSimulator {
    /// What one trade or call moved, by address.
    struct Ledger {
        /// Whether every read answered, before and after.
        bool readsOk;
        /// The observed balances' total change less the supply's change
        /// (tokens credited from nothing when above zero).
        int256 unaccounted;
        /// Tokens each watched address gained (index 0: the role itself,
        /// then `watch` in order).
        uint256[] tokenGains;
        /// Native currency and quote tokens each watched address gained.
        uint256[] valueGains;
        /// Tokens the token contract gained, and lost.
        uint256 contractGain;
        uint256 contractLoss;
        /// Native currency and quote tokens the token contract lost.
        uint256 contractValueLoss;
    }

    /// Balances read at one moment (see `Ledger`).
    struct Sheet {
        bool ok;
        uint256 supply;
        /// Token balances: the fixed parties (`parties`), then the watched.
        uint256[] tokens;
        /// Native plus quote balances of the watched, then of the contract.
        uint256[] values;
    }

    /// The fixed parties read besides the watched: the buyer, the pool,
    /// the trade's recipient, the token contract.
    function parties(Plan memory plan, address buyer) internal pure returns (address[4] memory p) {
        p = [buyer, plan.pair, plan.recipient, plan.token];
    }

    /// The addresses followed: this role, then `watch`.
    function watched(address[] memory watch) internal view returns (address[] memory w) {
        w = new address[](watch.length + 1);
        w[0] = address(this);
        for (uint256 i = 0; i < watch.length; i++) w[i + 1] = watch[i];
    }

    function sheet(Plan memory plan, address buyer, address[] memory watch)
        internal
        view
        returns (Sheet memory s)
    {
        address[4] memory fixed_ = parties(plan, buyer);
        address[] memory w = watched(watch);
        s.tokens = new uint256[](fixed_.length + w.length);
        s.values = new uint256[](w.length + 1);
        bool ok;
        s.ok = true;
        (s.supply, ok) = readSupply(plan.token);
        s.ok = s.ok && ok;
        for (uint256 i = 0; i < fixed_.length + w.length; i++) {
            address who = i < fixed_.length ? fixed_[i] : w[i - fixed_.length];
            (s.tokens[i], ok) = readBalance(plan.token, who);
            s.ok = s.ok && ok;
        }
        for (uint256 i = 0; i <= w.length; i++) {
            address who = i < w.length ? w[i] : plan.token;
            s.values[i] = who.balance + (plan.quote == address(0) ? 0 : tokenBalance(plan.quote, who));
        }
    }

    function readSupply(address token) internal view returns (uint256 value, bool ok) {
        (bool success, bytes memory out) = token.staticcall{gas: READ_GAS}(abi.encodeCall(ISupplyLike.totalSupply, ()));
        if (success && out.length >= 32) (value, ok) = (abi.decode(out, (uint256)), true);
    }

    /// The ledger between two sheets. An address read twice (the role is
    /// also the recipient, say) is counted once in the total.
    function ledger(Sheet memory a, Sheet memory b, Plan memory plan, address buyer, address[] memory watch)
        internal
        view
        returns (Ledger memory l)
    {
        l.readsOk = a.ok && b.ok;
        uint256 fixedCount = 4;
        uint256 w = watch.length + 1;
        l.tokenGains = new uint256[](w);
        l.valueGains = new uint256[](w);
        if (!l.readsOk) return l;
        address[4] memory fixed_ = parties(plan, buyer);
        address[] memory all = watched(watch);
        int256 total;
        for (uint256 i = 0; i < fixedCount + w; i++) {
            address who = i < fixedCount ? fixed_[i] : all[i - fixedCount];
            bool seen;
            for (uint256 j = 0; j < i && !seen; j++) {
                seen = (j < fixedCount ? fixed_[j] : all[j - fixedCount]) == who;
            }
            int256 change = delta(a.tokens[i], b.tokens[i]);
            if (!seen) total += change;
            if (i >= fixedCount && change > 0) l.tokenGains[i - fixedCount] = uint256(change);
        }
        l.unaccounted = total - delta(a.supply, b.supply);
        for (uint256 i = 0; i < w; i++) {
            if (b.values[i] > a.values[i]) l.valueGains[i] = b.values[i] - a.values[i];
        }
        (uint256 was, uint256 now_) = (a.tokens[3], b.tokens[3]);
        if (now_ > was) l.contractGain = now_ - was;
        else l.contractLoss = was - now_;
        if (a.values[w] > b.values[w]) l.contractValueLoss = a.values[w] - b.values[w];
    }

    /// `b − a` as a signed word, clamped to 2^200 either way (a token can
    /// answer any balance; a sum of clamped changes cannot overflow).
    function delta(uint256 a, uint256 b) internal pure returns (int256) {
        uint256 limit = 1 << 200;
        if (b >= a) return int256(b - a > limit ? limit : b - a);
        return -int256(a - b > limit ? limit : a - b);
    }
}
