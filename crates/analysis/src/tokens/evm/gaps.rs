//! Reads the node refused, each with the checks that needed it: one
//! refused request costs only those checks (recorded `unknown` with the
//! node's own words), never the analysis. The reads without which there is
//! nothing to analyse (the head block, the token's code, its first
//! multicall) still fail it.

use riskintel_types::CheckId;

use crate::scoring::Builder;
use riskintel_chains::rpc::RpcError;

/// What the token's code says it can do: judged from the logic code and
/// the functions probed as each role.
pub const CODE: &[CheckId] = &[
    CheckId::MintCapability,
    CheckId::SeizeBalance,
    CheckId::BurnFromOthers,
    CheckId::BlacklistCapability,
    CheckId::PauseCapability,
    CheckId::TaxModifiable,
    CheckId::TaxModifiablePerAddress,
    CheckId::MaxTxModifiable,
    CheckId::OwnershipReclaimable,
    CheckId::HiddenOwner,
    CheckId::SelfdestructPresent,
    CheckId::DelegatecallPresent,
];
/// The proxy's slots.
pub const PROXY: &[CheckId] = &[CheckId::UpgradeableProxy, CheckId::ProxyAdminIsEoa];
/// The pools' reserves and LP holders.
pub const POOLS: &[CheckId] = &[
    CheckId::NoLiquidity,
    CheckId::LowLiquidity,
    CheckId::LpUnlocked,
    CheckId::OwnerHoldsLp,
    CheckId::CreatorHoldsLp,
    CheckId::V4HookControlsSwaps,
];
/// The owner's balance.
pub const OWNER_BALANCE: &[CheckId] = &[CheckId::OwnerBalanceHigh];
/// Whether the owner is a contract.
pub const OWNER_CODE: &[CheckId] = &[CheckId::OwnerNotRenounced];
/// A V4 pool's hook contract.
pub const HOOKS: &[CheckId] = &[CheckId::V4HookControlsSwaps];
/// The largest holders' balances.
pub const HOLDERS: &[CheckId] = &[
    CheckId::WhaleConcentration,
    CheckId::SingleHolderDominance,
    CheckId::CreatorHoldsLp,
];
/// The launch: the opening blocks' transfers and the window's transactions.
pub const LAUNCH: &[CheckId] = &[CheckId::LaunchCluster, CheckId::BundledLaunch];
/// The creator's transfers since the launch.
pub const CREATOR_SALES: &[CheckId] = &[CheckId::CreatorSold];
/// When the token first moved.
pub const AGE: &[CheckId] = &[CheckId::NewToken];

/// Reads refused, with the checks each cost.
#[derive(Clone, Debug, Default)]
pub struct Gaps(Vec<(Vec<CheckId>, String)>);

impl Gaps {
    /// `result`'s value; or, when the node refused it, none, with the
    /// refusal of `what` recorded against `checks`. A node that cannot be
    /// reached at all still fails the analysis (503, `Retry-After`).
    pub fn keep<T>(
        &mut self,
        result: Result<T, RpcError>,
        what: impl FnOnce() -> String,
        checks: &[&[CheckId]],
    ) -> Result<Option<T>, RpcError> {
        match result {
            Ok(value) => Ok(Some(value)),
            Err(RpcError::Upstream(why)) => {
                let checks = checks.iter().flat_map(|c| c.iter().copied()).collect();
                self.0.push((
                    checks,
                    format!("{} was refused by the node ({why})", what()),
                ));
                Ok(None)
            }
            Err(unavailable) => Err(unavailable),
        }
    }

    /// Record that reads needed by `checks` failed, for `reason`.
    pub fn refused(&mut self, checks: &[&[CheckId]], reason: String) {
        let checks = checks.iter().flat_map(|c| c.iter().copied()).collect();
        self.0.push((checks, reason));
    }

    /// Take in the gaps of reads made apart.
    pub fn merge(&mut self, other: Gaps) {
        self.0.extend(other.0);
    }

    /// Withdraw what each refused read's checks concluded: they are
    /// recorded unknown with the node's words, and their signals dropped.
    pub fn apply(&self, b: &mut Builder) {
        for (checks, reason) in &self.0 {
            for id in checks {
                b.withdraw(*id, reason);
            }
        }
    }
}
