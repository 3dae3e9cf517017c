// SPDX-License-Identifier: Apache-2.0
// The project's privilege probe. Its runtime code is injected with an
// eth_call state override at the address of a privileged role (the owner,
// an admin, the creator…), so the token sees the role as the caller, and at
// two fresh wallets: a victim that holds tokens and a buyer that trades
// after each call. For every candidate call it runs, in isolation (a
// self-call that always reverts), the call as the role, then observes what
// changed: the supply, the victim's and the pool's balances, owner(),
// whether the victim can still transfer and sell, and what a fresh buyer's
// buy, transfer and sell cost. Nothing is sent; no state changes.
pragma solidity ^0.8.20;

import "./ProbeLedger.sol";

interface IOwnedLike {
    function owner() external view returns (address);
    function totalSupply() external view returns (uint256);
}

contract PrivilegeProbe is ProbeLedger {
    /// A word in a candidate's call data that stands for the victim's balance
    /// at the time of the call (known only inside the simulation; a
    /// thousandth of the supply when the victim could not buy).
    uint256 constant VICTIM_BALANCE = uint256(keccak256("riskintel victim balance"));
    /// An address argument that stands for the role making the call (the
    /// same calls are tried as every role): a fee wallet set to itself.
    uint256 constant ROLE_ADDRESS = uint256(uint160(uint256(keccak256("riskintel role"))));

    struct Target {
        Plan plan;
        address victim;
        address buyer;
        uint256 buyBps;
        uint256 probeGas;
        uint256 reserveGas;
        /// Addresses whose gains are followed besides the role's own (the
        /// token's other roles and the addresses its storage keeps).
        address[] watch;
    }

    struct Snapshot {
        uint256 supply;
        uint256 victim;
        uint256 pair;
        uint256 role;
        bool readsOk;
        bool ownerOk;
        address owner;
    }

    struct Effect {
        bool ran;
        bool ok;
        bytes revertData;
        Snapshot after_;
        bool victimTransferOk;
        bool victimSellOk;
        uint256 victimSellExpected;
        uint256 victimSellReceived;
        Outcome buyer;
        bool smallBuyOk;
        bool smallSellOk;
        /// When the call minted, from the state before it: whether a mint
        /// of a twentieth of the supply went through, and whether, right
        /// after the call, the same call minted again (`boundProbed` false:
        /// not tried, its amount is not an argument).
        bool boundProbed;
        bool largeMintOk;
        bool againMintOk;
        /// The call itself, and the fresh buyer's trade after it, as ledgers.
        Ledger call;
        Ledger trade;
    }

    struct Report {
        Outcome victimBuy;
        Snapshot before;
        Outcome roleTrade;
        Effect baseline;
        Effect[] effects;
        /// Calls made again after a call that stopped the victim's
        /// transfers (freeze, then what only a frozen account allows).
        FollowUp[] followUps;
    }

    /// `calls[main]` run right after `calls[first]`, from the same start.
    struct FollowUp {
        uint256 first;
        uint256 main;
        Effect effect;
    }

    /// One real holder's small exit (see `replay`).
    struct HolderResult {
        bool ran;
        uint256 balance;
        bool transferOk;
        bool sellOk;
        uint256 sellExpected;
    }

    error EffectResult(Effect e);
    error MintResult(bool minted);
    error BoundResult(bool largeOk, bool againOk);
    error HolderOutcome(HolderResult h);
    error TradeResult(Outcome o);

    /// Buy as the victim, observe, then run every call in `calls` as this
    /// address (the role), each from the same starting state.
    function probe(Target memory t, bytes[] memory calls) external returns (Report memory r) {
        // The victim's buy and the role's own trade get a quarter of the gas
        // left each, at most: a token that calls back into the role (a
        // controller hook answered by this code) and burns what it is given
        // costs those two, not the probe.
        if (t.plan.pair != address(0)) {
            try TradeSimulator(payable(t.victim)).buyIn{gas: gasleft() / 4}(t.plan, t.buyBps) returns (
                Outcome memory o
            ) {
                r.victimBuy = o;
            } catch {}
        }
        r.before = snapshot(t);
        if (t.plan.pair != address(0)) r.roleTrade = isolatedTrade(t.plan, t.buyBps, gasleft() / 4);
        // Each run gets a fair share of the gas left (what is left above
        // the reserve, divided by the runs still to make), never all of it:
        // a token whose failures burn every unit they are given (older
        // compilers' INVALID) costs one candidate, not the rest. And never
        // less than a run needs (a token whose every transfer pays out
        // dividends needs millions): calls that cannot get it are left
        // unrun (`ran` false), not read as calls that stopped trading.
        uint256 need = runNeed(r);
        r.baseline = runIsolated(t, "", max(share(t, calls.length + 1), min(need, share(t, 1))));
        r.effects = new Effect[](calls.length);
        for (uint256 i = 0; i < calls.length && gasleft() > t.probeGas + t.reserveGas; i++) {
            uint256 gas = share(t, calls.length - i);
            if (gas < need) {
                if (share(t, 1) < need) break;
                gas = need;
            }
            r.effects[i] = runIsolated(t, calls[i], gas);
            if (minted(r.before, r.effects[i]) && hasVictimBalance(calls[i])) {
                (r.effects[i].largeMintOk, r.effects[i].againMintOk, r.effects[i].boundProbed) =
                    runBound(t, calls[i], gas);
            }
        }
        r.followUps = followUps(t, calls, r);
    }

    /// Switches followed, at most: a call that turns something on, then
    /// each call without arguments.
    uint256 constant SWITCH_FOLLOW_UPS = 8;

    /// Follow-ups, with the gas the calls left, each from the same start:
    /// after the first call that stopped the victim's transfers (it could
    /// transfer before) while a fresh wallet still traded, every other call
    /// that takes an argument; and after each call that turned a switch on
    /// (`true`, its only argument) with no effect seen, every call without
    /// arguments (a claim the switch opens).
    function followUps(Target memory t, bytes[] memory calls, Report memory r)
        internal
        returns (FollowUp[] memory out)
    {
        uint256 first = type(uint256).max;
        for (uint256 i = 0; i < calls.length; i++) {
            Effect memory e = r.effects[i];
            // The victim stopped while a fresh wallet still trades (a
            // freeze of one address, not a pause of all).
            bool others = e.buyer.buyOk && e.buyer.sellOk;
            if (e.ran && e.ok && !e.victimTransferOk && r.baseline.victimTransferOk && others && calls[i].length > 4) {
                first = i;
                break;
            }
        }
        uint256[2][] memory pairs = new uint256[2][](calls.length + SWITCH_FOLLOW_UPS);
        uint256 count;
        for (uint256 i = 0; first != type(uint256).max && i < calls.length; i++) {
            if (i != first && calls[i].length > 4) pairs[count++] = [first, i];
        }
        uint256 switches;
        for (uint256 i = 0; i < calls.length && switches < SWITCH_FOLLOW_UPS; i++) {
            if (!switchedOn(r, r.effects[i], calls[i])) continue;
            for (uint256 j = 0; j < calls.length && switches < SWITCH_FOLLOW_UPS; j++) {
                if (calls[j].length != 4) continue;
                pairs[count++] = [i, j];
                switches++;
            }
        }
        out = runPairs(t, calls, pairs, count);
    }

    /// Run `calls[pairs[k][1]]` right after `calls[pairs[k][0]]` for the
    /// first `count` pairs, while the gas lasts.
    function runPairs(Target memory t, bytes[] memory calls, uint256[2][] memory pairs, uint256 count)
        internal
        returns (FollowUp[] memory out)
    {
        out = new FollowUp[](count);
        uint256 n;
        for (; n < count && gasleft() > t.probeGas + t.reserveGas; n++) {
            bytes memory both = abi.encodeCall(this.sequence, (calls[pairs[n][0]], calls[pairs[n][1]]));
            out[n] = FollowUp(pairs[n][0], pairs[n][1], runIsolated(t, both, share(t, count - n)));
        }
        assembly {
            mstore(out, n)
        }
    }

    /// Whether `data` set one flag on (`true`, its only argument), went
    /// through, and changed neither the supply nor the balances observed.
    function switchedOn(Report memory r, Effect memory e, bytes memory data) internal pure returns (bool) {
        if (data.length != 36 || !e.ran || !e.ok || !e.after_.readsOk) return false;
        uint256 word;
        assembly {
            word := mload(add(data, 36))
        }
        return word == 1 && e.after_.supply == r.before.supply && held(e.after_) == held(r.before);
    }

    /// A marker: `runOne` makes `first` then `main` (never called itself).
    function sequence(bytes memory first, bytes memory main) external pure {}

    /// Whether a call raised the supply, or the balances observed.
    function minted(Snapshot memory before, Effect memory e) internal pure returns (bool) {
        Snapshot memory a = e.after_;
        return e.ok && a.readsOk && (a.supply > before.supply || held(a) > held(before));
    }

    /// The balances observed, together (at most the largest word: a token
    /// can answer anything).
    function held(Snapshot memory s) internal pure returns (uint256) {
        unchecked {
            uint256 sum = s.victim + s.pair;
            if (sum < s.victim) return type(uint256).max;
            uint256 all = sum + s.role;
            return all < sum ? type(uint256).max : all;
        }
    }

    /// Whether `data` has a `VICTIM_BALANCE` argument (an amount to vary).
    function hasVictimBalance(bytes memory data) internal pure returns (bool found) {
        for (uint256 at = 4; at + 32 <= data.length; at += 32) {
            uint256 word;
            assembly {
                word := mload(add(add(data, 32), at))
            }
            if (word == VICTIM_BALANCE) return true;
        }
    }

    /// A mint's bound (see `Effect`), in a run of its own.
    function runBound(Target memory t, bytes memory data, uint256 gas)
        internal
        returns (bool largeOk, bool againOk, bool probed)
    {
        (, bytes memory out) = address(this).call{gas: gas}(abi.encodeCall(this.boundOne, (t, data)));
        if (out.length >= 4 && bytes4(out) == BoundResult.selector) {
            (largeOk, againOk) = abi.decode(afterSelector(out), (bool, bool));
            probed = true;
        }
    }

    /// Self-call only; always reverts with its `BoundResult`.
    function boundOne(Target memory t, bytes memory data) external {
        require(msg.sender == address(this), "self only");
        (uint256 supply, ) = readWord(t.plan.token, abi.encodeCall(IOwnedLike.totalSupply, ()));
        bytes memory large = bytes.concat(data);
        substitute(large, supply / 20);
        bool largeOk = isolatedMint(t, large);
        uint256 amount = tokenBalance(t.plan.token, t.victim);
        if (amount == 0) amount = supply / 1000;
        substitute(data, amount);
        t.plan.token.call{gas: t.probeGas}(data);
        revert BoundResult(largeOk, isolatedMint(t, data));
    }

    /// Whether `data` mints from this state (undone).
    function isolatedMint(Target memory t, bytes memory data) internal returns (bool) {
        (, bytes memory out) = address(this).call{gas: gasleft() / 2}(abi.encodeCall(this.mintOne, (t, data)));
        return out.length >= 4 && bytes4(out) == MintResult.selector && abi.decode(afterSelector(out), (bool));
    }

    /// Self-call only; always reverts with its `MintResult`.
    function mintOne(Target memory t, bytes memory data) external {
        require(msg.sender == address(this), "self only");
        Snapshot memory before = snapshot(t);
        Effect memory e;
        (e.ok, ) = t.plan.token.call{gas: t.probeGas}(data);
        if (e.ok) e.after_ = snapshot(t);
        revert MintResult(minted(before, e));
    }

    /// What is left above the reserve, divided by `runs`.
    function share(Target memory t, uint256 runs) internal view returns (uint256) {
        uint256 left = gasleft();
        return left > t.reserveGas ? (left - t.reserveGas) / runs : 0;
    }

    /// Gas for a run's call and what follows it, on top of the trades.
    uint256 constant RUN_BASE_GAS = 300_000;
    uint256 constant MAX_RUN_GAS = 15_000_000;

    /// The gas one run needs: the victim's transfer and sale, then a fresh
    /// buyer's buy, transfer and sale (each observation gets half the gas
    /// left), so about four times a buy and a sale, measured before any
    /// call: the role's own, or twice the victim's buy where that is more
    /// (a role is often spared the fees, and the swap-back they pay for).
    /// Only trades that went through are measured (a failure may have
    /// burnt all it was given), and the need is at most `MAX_RUN_GAS`.
    function runNeed(Report memory r) internal pure returns (uint256) {
        Outcome memory o = r.roleTrade;
        uint256 trade;
        if (o.buyOk) trade = o.buyGas + (o.sellOk ? o.sellGas : o.buyGas);
        if (r.victimBuy.buyOk && 2 * r.victimBuy.buyGas > trade) trade = 2 * r.victimBuy.buyGas;
        return min(4 * trade + RUN_BASE_GAS, MAX_RUN_GAS);
    }

    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }

    function max(uint256 a, uint256 b) internal pure returns (uint256) {
        return a > b ? a : b;
    }

    /// What a holder can still do: transfer a tenth of its balance to a
    /// fresh address, then sell the rest.
    function holderCheck(Plan memory plan) external returns (bool transferOk, Outcome memory sell) {
        uint256 balance = tokenBalance(plan.token, address(this));
        (transferOk, ) = plan.token.call(abi.encodeCall(IERC20Like.transfer, (plan.recipient, balance / 10)));
        sell = this.sellOut(plan);
    }

    /// Supply, balances and owner, read so that the token cannot revert
    /// through us; `readsOk` false when a supply or balance read failed.
    function snapshot(Target memory t) internal view returns (Snapshot memory s) {
        address token = t.plan.token;
        bool ok;
        bool all = true;
        (s.supply, ok) = readWord(token, abi.encodeCall(IOwnedLike.totalSupply, ()));
        all = all && ok;
        (s.victim, ok) = readBalance(token, t.victim);
        all = all && ok;
        if (t.plan.pair != address(0)) {
            (s.pair, ok) = readBalance(token, t.plan.pair);
            all = all && ok;
        }
        (s.role, ok) = readBalance(token, address(this));
        s.readsOk = all && ok;
        uint256 owner;
        (owner, s.ownerOk) = readWord(token, abi.encodeCall(IOwnedLike.owner, ()));
        s.owner = address(uint160(owner));
    }

    function readWord(address target, bytes memory data) internal view returns (uint256 value, bool ok) {
        (bool success, bytes memory out) = target.staticcall{gas: READ_GAS}(data);
        if (success && out.length >= 32) (value, ok) = (abi.decode(out, (uint256)), true);
    }

    function runIsolated(Target memory t, bytes memory data, uint256 gas) internal returns (Effect memory e) {
        (, bytes memory out) = address(this).call{gas: gas}(abi.encodeCall(this.runOne, (t, data)));
        if (out.length >= 4 && bytes4(out) == EffectResult.selector) return abi.decode(afterSelector(out), (Effect));
        // Not our result (out of gas, or something reverted through us): not observed.
        e.revertData = out;
    }

    /// Replay a small exit (a hundredth of the balance transferred, another
    /// sold) from each of `holders` (real addresses, this code injected at
    /// each), every one from the same state; and this address's own trade,
    /// to tell the holders' fate from the token's rules for everyone.
    function replay(Plan memory plan, uint256 buyBps, address[] memory holders)
        external
        returns (Outcome memory fresh, HolderResult[] memory results)
    {
        fresh = isolatedTrade(plan, buyBps, gasleft() / 4);
        results = new HolderResult[](holders.length);
        for (uint256 i = 0; i < holders.length; i++) {
            (, bytes memory out) = address(this).call(abi.encodeCall(this.replayOne, (plan, holders[i])));
            if (out.length >= 4 && bytes4(out) == HolderOutcome.selector) results[i] = abi.decode(afterSelector(out), (HolderResult));
        }
    }

    /// Self-call only; always reverts with its `HolderOutcome`.
    function replayOne(Plan memory plan, address holder) external {
        require(msg.sender == address(this), "self only");
        HolderResult memory h;
        h.ran = true;
        h.balance = tokenBalance(plan.token, holder);
        try PrivilegeProbe(payable(holder)).smallExit(plan) returns (bool transferOk, bool sellOk, uint256 expected) {
            (h.transferOk, h.sellOk, h.sellExpected) = (transferOk, sellOk, expected);
        } catch {}
        revert HolderOutcome(h);
    }

    /// Transfer a hundredth of this address's balance to a fresh address, then sell another hundredth.
    function smallExit(Plan memory plan) external returns (bool transferOk, bool sellOk, uint256 expected) {
        uint256 part = tokenBalance(plan.token, address(this)) / 100;
        (transferOk, ) = plan.token.call(abi.encodeCall(IERC20Like.transfer, (plan.recipient, part)));
        Probe memory sell = swapIn(venue(plan), plan.token, plan.quote, part);
        // A sell the token takes whole on the way pays nothing: no exit.
        (sellOk, expected) = (sell.ok && (sell.received > 0 || sell.expected == 0), sell.expected);
    }

    /// This address's own buy, transfer and sell, undone: whether the rules
    /// that stop a fresh wallet let it (a role) through.
    function isolatedTrade(Plan memory plan, uint256 buyBps, uint256 gas) internal returns (Outcome memory o) {
        (, bytes memory out) = address(this).call{gas: gas}(abi.encodeCall(this.tradeOnce, (plan, buyBps)));
        if (out.length >= 4 && bytes4(out) == TradeResult.selector) return abi.decode(afterSelector(out), (Outcome));
    }

    /// Self-call only; always reverts with its `TradeResult`.
    function tradeOnce(Plan memory plan, uint256 amountBps) external {
        require(msg.sender == address(this), "self only");
        revert TradeResult(this.simulate(plan, amountBps));
    }

    function afterSelector(bytes memory data) internal pure returns (bytes memory body) {
        body = new bytes(data.length - 4);
        for (uint256 i = 0; i < body.length; i++) body[i] = data[i + 4];
    }

    /// Self-call only; always reverts with its `EffectResult`.
    function runOne(Target memory t, bytes memory data) external {
        require(msg.sender == address(this), "self only");
        Effect memory e;
        e.ran = true;
        e.ok = true;
        if (data.length != 0) {
            uint256 amount = tokenBalance(t.plan.token, t.victim);
            if (amount == 0) {
                (uint256 supply, ) = readWord(t.plan.token, abi.encodeCall(IOwnedLike.totalSupply, ()));
                amount = supply / 1000;
            }
            if (bytes4(data) == this.sequence.selector) {
                (bytes memory first, bytes memory main) = abi.decode(afterSelector(data), (bytes, bytes));
                substitute(first, amountFor(t, first, amount));
                (e.ok, e.revertData) = t.plan.token.call{gas: t.probeGas}(first);
                data = main;
            }
            substitute(data, amountFor(t, data, amount));
            Sheet memory before = sheet(t.plan, t.buyer, t.watch);
            if (e.ok) (e.ok, e.revertData) = t.plan.token.call{gas: t.probeGas}(data);
            if (e.ok) e.call = ledger(before, sheet(t.plan, t.buyer, t.watch), t.plan, t.buyer, t.watch);
        }
        if (e.ok) {
            e.after_ = snapshot(t);
            // Each observation gets at most half the gas left, so one that
            // burns all it is given (INVALID) reads as refused and the run
            // still reports.
            try PrivilegeProbe(payable(t.victim)).holderCheck{gas: gasleft() / 2}(t.plan) returns (
                bool transferOk, Outcome memory sell
            ) {
                (e.victimTransferOk, e.victimSellOk) = (transferOk, sell.sellOk);
                (e.victimSellExpected, e.victimSellReceived) = (sell.expectedSell, sell.sellReceived);
            } catch {}
            if (t.plan.pair != address(0)) observeBuyer(t, e);
        }
        revert EffectResult(e);
    }

    /// A fresh buyer's buy, transfer and sell; when they fail, the same at a hundredth of the size.
    function observeBuyer(Target memory t, Effect memory e) internal {
        Sheet memory before = sheet(t.plan, t.buyer, t.watch);
        try TradeSimulator(payable(t.buyer)).simulate{gas: gasleft() / 2}(t.plan, t.buyBps) returns (Outcome memory o) {
            e.buyer = o;
            // The buy stays; the sell, made for real too, is in the ledger.
            if (o.buyOk && o.sellOk) {
                try TradeSimulator(payable(t.buyer)).sellOut{gas: gasleft() / 2}(t.plan) returns (Outcome memory) {} catch {}
            }
            e.trade = ledger(before, sheet(t.plan, t.buyer, t.watch), t.plan, t.buyer, t.watch);
        } catch {}
        if (!e.buyer.buyOk || !e.buyer.sellOk) {
            try TradeSimulator(payable(t.buyer)).simulate{gas: gasleft() / 2}(t.plan, t.buyBps / 100) returns (
                Outcome memory small
            ) {
                (e.smallBuyOk, e.smallSellOk) = (small.buyOk, small.sellOk);
            } catch {}
        }
    }

    /// The amount a call's `VICTIM_BALANCE` stands for: the victim's
    /// balance, or, when the call names the token itself (a rescue of what
    /// the contract holds), the token contract's own balance where it has one.
    function amountFor(Target memory t, bytes memory data, uint256 victimAmount) internal view returns (uint256) {
        uint256 token = uint256(uint160(t.plan.token));
        for (uint256 at = 4; at + 32 <= data.length; at += 32) {
            uint256 word;
            assembly {
                word := mload(add(add(data, 32), at))
            }
            if (word == token) {
                uint256 held = tokenBalance(t.plan.token, t.plan.token);
                return held == 0 ? victimAmount : held;
            }
        }
        return victimAmount;
    }

    /// Replace every `VICTIM_BALANCE` argument word with `value`, and every
    /// `ROLE_ADDRESS` with this role's address.
    function substitute(bytes memory data, uint256 value) internal view {
        uint256 role = uint256(uint160(address(this)));
        for (uint256 at = 4; at + 32 <= data.length; at += 32) {
            uint256 word;
            assembly {
                word := mload(add(add(data, 32), at))
            }
            if (word == VICTIM_BALANCE || word == ROLE_ADDRESS) {
                uint256 by = word == VICTIM_BALANCE ? value : role;
                assembly {
                    mstore(add(add(data, 32), at), by)
                }
            }
        }
    }
}
