//! The privileged roles of a token — its active owner, its creator, its
//! `AccessControl` role members, the addresses its storage keeps, and
//! anyone — with who controls each
//! (`control`), and the probing of every non-standard function as each of
//! them (`simulation::probe`), planned into the last round.

use alloy_primitives::{keccak256, Address, Bytes, B256, U256};
use serde_json::json;

use super::code::CodeFacts;
use super::control::{self, AdminControl, Control};
use crate::simulation::abi::Plan;
use crate::simulation::probe::{self, Candidate, Probed, Wallets};
use crate::simulation::{self, fresh_address};
use riskintel_chains::evm::addr;
use riskintel_chains::evm::multicall::{Multicall, Pending};
use riskintel_chains::evm::pools::Pair;
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::evm::{EvmChain, DEAD};
use riskintel_chains::rpc::{Answers, Batch, Slot};

/// A privileged role and its address.
#[derive(Clone, Debug)]
pub struct Role {
    /// Address.
    pub address: Address,
    /// What it is: `owner`, `creator`, `anyone`.
    pub names: Vec<&'static str>,
    /// Who holds it.
    pub control: Control,
}

impl Role {
    /// As words: "the owner 0x… (one private key)".
    pub fn describe(&self) -> String {
        match self.control {
            Control::Anyone => "anyone (a fresh address with no privilege)".into(),
            control => format!(
                "the {} {} {}",
                self.names.join(" and "),
                addr(&self.address),
                control.words()
            ),
        }
    }
}

/// The probing of a token: roles, calls tried, and each role's outcome.
#[derive(Clone, Debug)]
pub struct Probing {
    /// The roles probed.
    pub roles: Vec<Role>,
    /// The calls tried as each role.
    pub candidates: Vec<Candidate>,
    /// Per role (same order): what the calls did, or why the probe did not run.
    pub results: Vec<Result<Probed, String>>,
    /// Functions left without a single call (past the per-role budget).
    pub untried: Vec<String>,
}

/// A role waiting for its code and control reads.
struct Pending_ {
    address: Address,
    names: Vec<&'static str>,
    has_code: Option<bool>,
    code: Option<Slot<Bytes>>,
    reads: Option<control::Reads>,
}

/// Probing sent with the last round, waiting for its answers.
pub struct PlannedProbing {
    roles: Vec<Pending_>,
    admin: Option<control::Reads>,
    /// The admin's owner: its control reads and its code.
    admin_owner: Option<(control::Reads, Slot<Bytes>)>,
    control: Pending,
    candidates: Vec<Candidate>,
    untried: Vec<String>,
    planned: Vec<probe::Planned>,
}

/// Who is asked: the token, the block, and the roles known so far.
pub struct Known<'a> {
    /// The token.
    pub token: Address,
    /// The block read at.
    pub block: u64,
    /// The logic code's functions.
    pub code: &'a CodeFacts,
    /// The active owner, and whether it has code (None: unknown).
    pub owner: Option<(Address, Option<bool>)>,
    /// The creator (the first mint's recipient).
    pub creator: Option<Address>,
    /// `AccessControl` role members (role name, member).
    pub members: &'a [(&'static str, Address)],
    /// Addresses kept in storage or written in the code that no other role
    /// names (`gatekeepers`, `code`), each with what it is.
    pub keepers: &'a [(Address, &'static str)],
    /// The EIP-1967 admin, when it is a contract (its control is read too),
    /// and its `owner()` if any (whose control and code are read as well).
    pub contract_admin: Option<(Address, Option<Address>)>,
}

/// Add to `batch` the control reads of the roles (and of a contract
/// admin), and the probing of every non-standard function of the code as
/// each role on `pool` (the deepest the simulator can trade in; None when
/// there is none, so only supply and balances are observed), with runs
/// sized by `trade_gas` (a fresh wallet's buy and sell, measured).
pub fn plan(
    chain: &EvmChain,
    k: &Known,
    (pool, trade_gas): (Option<&Pair>, u64),
    price_pairs: &[Pair],
    batch: &mut Batch,
) -> PlannedProbing {
    let (token, block) = (k.token, k.block);
    let pair = pool.map_or(Address::ZERO, |p| p.address);
    let fresh = |role: &str| fresh_address(token, pair, block, role);
    let wallets = Wallets {
        victim: fresh("victim"),
        buyer: fresh("buyer"),
        fresh: fresh("fresh holder"),
        caller: fresh("probe caller"),
    };
    let trade = pool
        .and_then(|p| simulation::trade_plan(chain, token, p, price_pairs, block))
        .unwrap_or(Plan {
            pair: Address::ZERO,
            token,
            wrapped: chain.wrapped.address,
            quote: Address::ZERO,
            pricePair: Address::ZERO,
            feeBps: U256::ZERO,
            recipient: fresh("recipient"),
            searchSteps: U256::ZERO,
            kind: U256::ZERO,
            priceKind: U256::ZERO,
            priceFeeBps: U256::ZERO,
            spacing: Default::default(),
            hooks: Address::ZERO,
        });
    let functions: Vec<_> = k
        .code
        .functions
        .iter()
        .filter(|f| f.probed())
        .map(|f| (f.selector, f.arguments.clone(), f.describe()))
        .collect();
    let (candidates, untried) = probe::candidates(&functions, &wallets, trade.pair, token);
    let mut calls = Multicall::new();
    let mut roles = Vec::new();
    let mut planned = Vec::new();
    let mut list: Vec<(Address, Vec<&'static str>, Option<bool>)> = Vec::new();
    if let Some((address, has_code)) = k.owner {
        list.push((address, vec!["owner"], has_code));
    }
    match (k.creator, list.first_mut()) {
        (Some(c), Some(owner)) if owner.0 == c => owner.1.push("creator"),
        (Some(c), _) if !c.is_zero() && c != DEAD => list.push((c, vec!["creator"], None)),
        _ => {}
    }
    for (name, member) in k.members {
        match list.iter_mut().find(|r| r.0 == *member) {
            Some(role) => role.1.push(name),
            None => list.push((*member, vec![name], None)),
        }
    }
    // Keepers are never the owner, the creator or a member (behaviour::keepers).
    for (keeper, what) in k.keepers {
        list.push((*keeper, vec![*what], None));
    }
    // The token and its pool cannot carry the probe's code without losing their own.
    list.retain(|r| r.0 != token && r.0 != pair);
    // Whose gains each probe follows besides its role's own: the addresses
    // a role chose or the token's storage keeps (holders are not).
    let watch: Vec<Address> = (list.iter())
        .filter(|(_, names, _)| names != &["large holder"])
        .map(|(address, _, _)| *address)
        .collect();
    list.push((fresh("anyone"), vec!["anyone"], Some(false)));
    let mut sizing = probe::Sizing::new(trade_gas);
    for (address, names, has_code) in list {
        let anyone = names == ["anyone"];
        let code = (has_code.is_none())
            .then(|| batch.call::<Bytes>("eth_getCode", json!([address, BlockTag::Number(block)])));
        let reads =
            (!anyone && has_code != Some(false)).then(|| control::plan(address, &mut calls));
        let others: Vec<Address> = watch.iter().copied().filter(|w| *w != address).collect();
        planned.push(probe::plan(
            &trade,
            (address, &others),
            &candidates,
            (&wallets, &mut sizing),
            block,
            batch,
        ));
        roles.push(Pending_ {
            address,
            names,
            has_code: if anyone { None } else { has_code },
            code,
            reads,
        });
    }
    let admin = k.contract_admin.map(|(a, _)| control::plan(a, &mut calls));
    let admin_owner = k.contract_admin.and_then(|(_, owner)| owner).map(|owner| {
        let code = batch.call::<Bytes>("eth_getCode", json!([owner, BlockTag::Number(block)]));
        (control::plan(owner, &mut calls), code)
    });
    let control = calls.into_batch(batch, chain.multicall, &BlockTag::Number(block));
    PlannedProbing {
        roles,
        admin,
        admin_owner,
        control,
        candidates,
        untried,
        planned,
    }
}

impl PlannedProbing {
    /// The probing's outcome, and the contract admin's control, from the round's answers.
    pub fn take(self, answers: &mut Answers) -> (Probing, Option<AdminControl>) {
        let results = self.control.take(answers).ok();
        let classify = |reads: control::Reads, has_code: bool| match &results {
            Some(r) => reads.classify(r, has_code),
            None if has_code => Control::Contract,
            None => Control::Eoa,
        };
        let mut roles = Vec::new();
        for role in self.roles {
            let has_code = match (role.has_code, role.code.map(|slot| answers.take(slot))) {
                (Some(known), _) => known,
                (None, Some(Ok(code))) => !code.is_empty(),
                // Unknown code: counted in full, as a contract without delay.
                (None, _) => true,
            };
            let control = match (role.names.as_slice(), role.reads) {
                (["anyone"], _) => Control::Anyone,
                (_, Some(reads)) => classify(reads, has_code),
                (_, None) if has_code => Control::Contract,
                (_, None) => Control::Eoa,
            };
            roles.push(Role {
                address: role.address,
                names: role.names,
                control,
            });
        }
        // A contract admin without a delay or signers of its own (a
        // ProxyAdmin) is held by whoever owns it; its owner's code unread
        // counts as a contract without delay.
        let owner = self.admin_owner.map(|(reads, code)| {
            let has_code = answers.take(code).map_or(true, |c| !c.is_empty());
            classify(reads, has_code)
        });
        let admin = self
            .admin
            .map(|reads| match (classify(reads, true), owner) {
                (Control::Contract, Some(owner)) => AdminControl {
                    control: owner,
                    via_owner: true,
                },
                (own, _) => AdminControl {
                    control: own,
                    via_owner: false,
                },
            });
        let results = self.planned.into_iter().map(|p| p.take(answers)).collect();
        (
            Probing {
                roles,
                candidates: self.candidates,
                results,
                untried: self.untried,
            },
            admin,
        )
    }
}

/// Most members added from the holder index's RoleGranted logs: each is
/// probed like any role, within the probe's budget.
const LOGGED_MEMBERS: usize = 6;

/// The members `getRoleMember` named, then those the token's RoleGranted
/// logs name (not revoked since) that it did not — the only way to know
/// the members of a plain `AccessControl` — each under its role's name.
pub fn with_logged_members(
    mut members: Vec<(&'static str, Address)>,
    logged: &[(B256, Address)],
) -> Vec<(&'static str, Address)> {
    let known = access_roles();
    let mut added = 0;
    for (role, member) in logged {
        if added == LOGGED_MEMBERS || members.iter().any(|(_, m)| m == member) || member.is_zero() {
            continue;
        }
        let name = known
            .iter()
            .find(|(_, hash)| hash == role)
            .map_or("role member", |(name, _)| name);
        members.push((name, *member));
        added += 1;
    }
    members
}

/// The `AccessControl` roles whose first member is read: the role admin,
/// and the roles that usually mint, pause or burn.
pub fn access_roles() -> [(&'static str, B256); 4] {
    [
        ("role admin", B256::ZERO),
        ("minter", keccak256("MINTER_ROLE")),
        ("pauser", keccak256("PAUSER_ROLE")),
        ("burner", keccak256("BURNER_ROLE")),
    ]
}
