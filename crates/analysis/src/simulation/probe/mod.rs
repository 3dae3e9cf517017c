//! Privilege probing: every non-standard function of the token's code,
//! called as each privileged role with a few argument patterns, in one
//! `eth_call` per role and per 24 calls (fewer where runs are heavy:
//! `Sizing`), with the probe contract injected at the role's address. What each call did is observed inside the same
//! simulation (`simulator/PrivilegeProbe.sol`); `tokens::evm::powers`
//! classifies it.

use alloy_dyn_abi::{DynSolType, DynSolValue};
use alloy_primitives::{keccak256, Address, Bytes, B256, I256, U256};
use alloy_sol_types::SolCall;
use serde_json::{json, Map, Value};

use super::abi::{IPrivilegeProbe, Outcome, Plan, PROBE_RUNTIME_HEX};
use riskintel_chains::evm::types::BlockTag;
use riskintel_chains::rpc::{Answers, Batch, Slot};

mod sizing;
pub use sizing::Sizing;

/// The call-data word the probe replaces with the victim's balance.
pub fn victim_balance_word() -> U256 {
    U256::from_be_bytes(keccak256("riskintel victim balance").0)
}

/// The address argument the probe replaces with the role making the call
/// (a fee wallet or a recipient set to the role itself).
pub fn role_address() -> Address {
    Address::from_word(keccak256("riskintel role"))
}

/// Values tried for integer arguments after the victim's balance: fees in
/// basis points and in percent, and small limits.
const FEE_VALUES: [u64; 8] = [9_900, 5_000, 2_500, 1_000, 99, 49, 25, 10];
/// Calls tried per function, at most.
const PER_FUNCTION: usize = 24;
/// Functions with more arguments get only the plain patterns.
const MAX_ARGUMENTS: usize = 8;
/// Calls tried per role, at most.
pub const PER_ROLE: usize = 96;
/// Calls per `eth_call`, at most.
const PER_CALL: usize = 24;
/// Gas of one probing `eth_call`, of one probed call, and kept in reserve.
const CALL_GAS: u64 = 50_000_000;
const PROBE_GAS: u64 = 1_500_000;
const RESERVE_GAS: u64 = 3_000_000;
/// The share of the pool's quote reserve the victim and the buyer spend (bps).
const BUY_BPS: u64 = 100;

/// The fresh addresses a probe uses as arguments and as wallets.
#[derive(Clone, Copy, Debug)]
pub struct Wallets {
    /// Buys before the calls; the holder a call may harm.
    pub victim: Address,
    /// Buys, transfers and sells after each call.
    pub buyer: Address,
    /// An address with nothing, as an argument.
    pub fresh: Address,
    /// Sends the `eth_call`.
    pub caller: Address,
}

/// One call tried as a role.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The function's selector.
    pub selector: [u8; 4],
    /// Its signature or `function 0x…`.
    pub function: String,
    /// The call data (the victim's balance as a placeholder word).
    pub data: Bytes,
    /// Whether an argument is the pool's address.
    pub names_pair: bool,
    /// Whether it was made right after a call that stopped a holder (a follow-up).
    pub follow_up: bool,
}

/// The candidate calls for `functions` (selector, argument types when
/// known, name), at most [`PER_ROLE`]: taken round-robin, every function's
/// first pattern before any function's second, so a long list of functions
/// is still tried whole before its patterns are. Also the functions that
/// did not get a single call.
pub fn candidates(
    functions: &[([u8; 4], Option<Vec<DynSolType>>, String)],
    wallets: &Wallets,
    pair: Address,
    token: Address,
) -> (Vec<Candidate>, Vec<String>) {
    let parties = Parties {
        wallets,
        pair,
        token,
    };
    let per_function: Vec<Vec<Candidate>> = functions
        .iter()
        .map(|(selector, arguments, function)| {
            let argument_lists = match arguments {
                // More arguments than any privileged setter takes: the plain patterns only.
                Some(types) if types.len() > MAX_ARGUMENTS => fallback(&parties),
                Some(types) => match types
                    .iter()
                    .map(|t| values(t, &parties))
                    .collect::<Option<Vec<_>>>()
                {
                    Some(lists) => combinations(&lists),
                    None => fallback(&parties),
                },
                None => fallback(&parties),
            };
            argument_lists
                .into_iter()
                .take(PER_FUNCTION)
                .map(|args| {
                    let names_pair = args.iter().any(|v| names(v, pair));
                    let mut data = selector.to_vec();
                    data.extend(DynSolValue::Tuple(args).abi_encode_params());
                    Candidate {
                        selector: *selector,
                        function: function.clone(),
                        data: Bytes::from(data),
                        names_pair,
                        follow_up: false,
                    }
                })
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    let deepest = per_function.iter().map(Vec::len).max().unwrap_or(0);
    'rounds: for round in 0..deepest {
        for calls in &per_function {
            if out.len() == PER_ROLE {
                break 'rounds;
            }
            if let Some(call) = calls.get(round) {
                out.push(call.clone());
            }
        }
    }
    let untried = functions
        .iter()
        .filter(|f| !out.iter().any(|c| c.selector == f.0))
        .map(|f| f.2.clone())
        .collect();
    (out, untried)
}

fn names(value: &DynSolValue, pair: Address) -> bool {
    match value {
        DynSolValue::Address(a) => *a == pair,
        DynSolValue::Array(items) | DynSolValue::FixedArray(items) | DynSolValue::Tuple(items) => {
            items.iter().any(|v| names(v, pair))
        }
        _ => false,
    }
}

/// When the argument types are unknown: no argument, a holder, a holder
/// and an amount, the token itself and an amount (a rescue of what its
/// contract holds), the role (a wallet set to itself).
fn fallback(parties: &Parties) -> Vec<Vec<DynSolValue>> {
    let victim = DynSolValue::Address(parties.wallets.victim);
    let amount = DynSolValue::Uint(victim_balance_word(), 256);
    vec![
        vec![],
        vec![victim.clone()],
        vec![victim, amount.clone()],
        vec![DynSolValue::Address(parties.token), amount],
        vec![DynSolValue::Address(role_address())],
    ]
}

/// The addresses arguments are made of.
struct Parties<'a> {
    wallets: &'a Wallets,
    pair: Address,
    token: Address,
}

/// The values tried for one argument type, the default first; None for a
/// type not handled. Addresses: a holder, the pool, the token itself (what
/// its contract holds of itself), the role, a fresh address — in that
/// order, since a long list of functions may get only the first few.
fn values(ty: &DynSolType, parties: &Parties) -> Option<Vec<DynSolValue>> {
    let (wallets, pair) = (parties.wallets, parties.pair);
    Some(match ty {
        DynSolType::Address => vec![
            DynSolValue::Address(wallets.victim),
            DynSolValue::Address(pair),
            DynSolValue::Address(parties.token),
            DynSolValue::Address(role_address()),
            DynSolValue::Address(wallets.fresh),
        ],
        DynSolType::Uint(bits) => {
            let fits = |v: &U256| *bits >= 256 || *v < (U256::from(1) << *bits);
            let mut list: Vec<U256> = Vec::new();
            if *bits == 256 {
                list.push(victim_balance_word());
            }
            list.extend(FEE_VALUES.iter().map(|v| U256::from(*v)).filter(fits));
            list.into_iter()
                .map(|v| DynSolValue::Uint(v, *bits))
                .collect()
        }
        DynSolType::Bool => vec![DynSolValue::Bool(true), DynSolValue::Bool(false)],
        DynSolType::Int(bits) => vec![DynSolValue::Int(I256::ZERO, *bits)],
        DynSolType::FixedBytes(size) => vec![DynSolValue::FixedBytes(B256::ZERO, *size)],
        DynSolType::Bytes => vec![DynSolValue::Bytes(Vec::new())],
        DynSolType::String => vec![DynSolValue::String(String::new())],
        DynSolType::Array(inner) => {
            vec![DynSolValue::Array(vec![values(inner, parties)?.remove(0)])]
        }
        DynSolType::FixedArray(inner, n) => {
            vec![DynSolValue::FixedArray(vec![
                values(inner, parties)?
                    .remove(0);
                *n
            ])]
        }
        DynSolType::Tuple(types) => {
            vec![DynSolValue::Tuple(
                types
                    .iter()
                    .map(|t| Some(values(t, parties)?.remove(0)))
                    .collect::<Option<Vec<_>>>()?,
            )]
        }
        _ => return None,
    })
}

/// Every argument at its default; then, when every argument is an integer,
/// the same value in all of them (fee triples); then each argument through
/// its values with the others at their defaults. No repeats.
fn combinations(lists: &[Vec<DynSolValue>]) -> Vec<Vec<DynSolValue>> {
    if lists.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let default: Vec<DynSolValue> = lists.iter().map(|l| l[0].clone()).collect();
    let mut out = vec![default.clone()];
    if lists.len() > 1 && lists.iter().all(|l| matches!(l[0], DynSolValue::Uint(..))) {
        let shortest = lists.iter().map(Vec::len).min().unwrap_or(0);
        for k in 1..shortest {
            out.push(lists.iter().map(|l| l[k].clone()).collect());
        }
    }
    for (i, list) in lists.iter().enumerate() {
        for value in &list[1..] {
            let mut args = default.clone();
            args[i] = value.clone();
            out.push(args);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|args| seen.insert(DynSolValue::Tuple(args.clone()).abi_encode_params()));
    out
}

/// The probing of one role, waiting for its answers.
pub struct Planned {
    /// The role's address.
    pub role: Address,
    watch: Vec<Address>,
    /// How many candidates there are.
    count: usize,
    /// Each `eth_call` and the candidates it carries.
    slots: Vec<(Slot<Bytes>, Vec<usize>)>,
}

/// What one role's calls did.
#[derive(Clone, Debug)]
pub struct Probed {
    /// The role's address.
    pub role: Address,
    /// The addresses whose gains each ledger gives after the role's own
    /// (`Ledger.tokenGains[1..]`), in order.
    pub watch: Vec<Address>,
    /// State after the victim's buy, before any call.
    pub before: IPrivilegeProbe::Snapshot,
    /// The role's own buy, transfer and sell (empty when there is no pool).
    pub role_trade: Outcome,
    /// The observations with no call made.
    pub baseline: IPrivilegeProbe::Effect,
    /// Each candidate's effect, in the candidates' order (`ran` false when
    /// the gas ran out first, or no `eth_call` carried it: see `Sizing`).
    pub effects: Vec<IPrivilegeProbe::Effect>,
    /// Candidates run again right after the first candidate that stopped
    /// the victim's transfers: (that candidate, the candidate, the effect
    /// of both), indices into the candidates.
    pub follow_ups: Vec<(usize, usize, IPrivilegeProbe::Effect)>,
}

/// Add to `batch` the `eth_call`s that run every candidate as `role` on
/// `plan`'s pool at `block`, following the gains of `watch` too, cut
/// into `eth_call`s by `sizing`.
pub fn plan(
    plan: &Plan,
    (role, watch): (Address, &[Address]),
    candidates: &[Candidate],
    (wallets, sizing): (&Wallets, &mut Sizing),
    block: u64,
    batch: &mut Batch,
) -> Planned {
    let mut plan = plan.clone();
    plan.searchSteps = U256::ZERO;
    let target = IPrivilegeProbe::Target {
        plan,
        victim: wallets.victim,
        buyer: wallets.buyer,
        buyBps: U256::from(BUY_BPS),
        probeGas: U256::from(PROBE_GAS),
        reserveGas: U256::from(RESERVE_GAS),
        watch: watch.to_vec(),
    };
    let code = PROBE_RUNTIME_HEX.trim();
    let funds = super::abi::funds();
    let mut overrides = Map::new();
    for wallet in [role, wallets.victim, wallets.buyer] {
        overrides.insert(
            format!("{wallet:#x}"),
            json!({"code": code, "balance": funds}),
        );
    }
    let overrides = Value::Object(overrides);
    let indices: Vec<usize> = (0..candidates.len()).collect();
    let mut slots = Vec::new();
    for chunk in sizing.chunks(&indices) {
        let calls = chunk.iter().map(|i| candidates[*i].data.clone()).collect();
        let data = IPrivilegeProbe::probeCall {
            t: target.clone(),
            calls,
        }
        .abi_encode();
        let request = json!({"from": wallets.caller, "to": role, "data": Bytes::from(data), "gas": format!("{CALL_GAS:#x}")});
        slots.push((
            batch.call::<Bytes>(
                "eth_call",
                json!([request, BlockTag::Number(block), overrides]),
            ),
            chunk.to_vec(),
        ));
    }
    Planned {
        role,
        watch: watch.to_vec(),
        count: candidates.len(),
        slots,
    }
}

/// One probing `eth_call`'s report, from its answer.
fn report(answer: Result<Bytes, String>, count: usize) -> Result<IPrivilegeProbe::Report, String> {
    let data = answer.map_err(|e| {
        format!(
            "the node refused the probing call ({e}); it may not support eth_call state overrides"
        )
    })?;
    if data.is_empty() {
        return Err("the node ignored the eth_call state override (the probe had no code)".into());
    }
    let report = IPrivilegeProbe::probeCall::abi_decode_returns(&data)
        .map_err(|_| "the probe's answer could not be decoded".to_string())?;
    if report.effects.len() != count {
        return Err("the probe's answer has fewer calls than were sent".into());
    }
    Ok(report)
}

impl Probed {
    /// Put `report`'s effects, of the candidates `indices`, in their places.
    fn place(&mut self, report: IPrivilegeProbe::Report, indices: &[usize]) {
        let at = |i: U256| indices.get(i.saturating_to::<usize>()).copied();
        for (effect, index) in report.effects.into_iter().zip(indices) {
            self.effects[*index] = effect;
        }
        for f in report.followUps {
            if let (Some(first), Some(main)) = (at(f.first), at(f.main)) {
                self.follow_ups.push((first, main, f.effect));
            }
        }
    }
}

impl Planned {
    /// What the calls did; `Err` with the reason when the probe did not run.
    pub fn take(self, answers: &mut Answers) -> Result<Probed, String> {
        let mut probed: Option<Probed> = None;
        for (slot, indices) in self.slots {
            let report = report(answers.take(slot).map_err(|e| e.to_string()), indices.len())?;
            let p = probed.get_or_insert_with(|| Probed {
                role: self.role,
                watch: self.watch.clone(),
                before: report.before.clone(),
                role_trade: report.roleTrade.clone(),
                baseline: report.baseline.clone(),
                effects: vec![Default::default(); self.count],
                follow_ups: Vec::new(),
            });
            p.place(report, &indices);
        }
        probed.ok_or_else(|| "nothing was probed".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallets() -> Wallets {
        let a = |n: u8| Address::repeat_byte(n);
        Wallets {
            victim: a(1),
            buyer: a(2),
            fresh: a(3),
            caller: a(4),
        }
    }

    #[test]
    fn arguments_follow_their_types() {
        let pair = Address::repeat_byte(9);
        let functions = vec![(
            [1, 2, 3, 4],
            Some(vec![DynSolType::Address, DynSolType::Uint(256)]),
            "f".to_string(),
        )];
        let (calls, untried) = candidates(&functions, &wallets(), pair, Address::repeat_byte(8));
        assert!(untried.is_empty());
        // Defaults, four more addresses (the role's as a placeholder), eight fee values.
        assert_eq!(calls.len(), 13);
        assert!(calls.iter().any(|c| c.data[16..36] == role_address()[..]));
        let first = &calls[0].data;
        assert_eq!(&first[..4], &[1, 2, 3, 4]);
        assert_eq!(&first[16..36], wallets().victim.as_slice());
        assert_eq!(U256::from_be_slice(&first[36..68]), victim_balance_word());
        assert_eq!(calls.iter().filter(|c| c.names_pair).count(), 1);
    }

    #[test]
    fn unknown_arguments_get_the_fallback_patterns_and_small_integers_fit() {
        let functions = vec![
            ([0; 4], None, "g".to_string()),
            (
                [1; 4],
                Some(vec![DynSolType::Uint(8), DynSolType::Uint(8)]),
                "h".to_string(),
            ),
        ];
        let (calls, _) = candidates(&functions, &wallets(), Address::ZERO, Address::ZERO);
        assert_eq!(calls.iter().filter(|c| c.selector == [0; 4]).count(), 5);
        // uint8: 99, 49, 25, 10 each, per argument and together, without repeats.
        let h: Vec<_> = calls.iter().filter(|c| c.selector == [1; 4]).collect();
        assert_eq!(h.len(), 1 + 3 + 3 + 3);
        assert!(h.iter().all(|c| c.data.len() == 4 + 64));
    }

    #[test]
    fn many_functions_are_each_tried_before_their_patterns() {
        let functions: Vec<_> = (0..60u8)
            .map(|i| {
                (
                    [i; 4],
                    Some(vec![DynSolType::Address, DynSolType::Uint(256)]),
                    format!("f{i}"),
                )
            })
            .collect();
        let (calls, untried) = candidates(&functions, &wallets(), Address::ZERO, Address::ZERO);
        assert_eq!(calls.len(), PER_ROLE);
        assert!(
            untried.is_empty(),
            "every function gets its default call first"
        );
        let many: Vec<_> = (0..=255u8)
            .map(|i| ([i; 4], None, format!("g{i}")))
            .collect();
        let (_, untried) = candidates(&many, &wallets(), Address::ZERO, Address::ZERO);
        assert_eq!(untried.len(), 256 - PER_ROLE);
    }
}
