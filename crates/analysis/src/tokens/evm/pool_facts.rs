//! One pool of the token as the checks see it: its state and who holds
//! its LP (read in round 2, the creator's share in round 3).

use alloy_primitives::U256;
use riskintel_chains::evm::pools::PoolState;

/// One pool of the token, with the LP held by those who could pull it.
#[derive(Clone, Debug)]
pub struct PoolFacts {
    /// The pair and its reserves (base = the token).
    pub state: PoolState,
    /// LP held by dead + zero.
    pub lp_burned: U256,
    /// LP held by configured lockers.
    pub lp_locked: U256,
    /// LP held by the owner, if there is one.
    pub lp_owner: Option<U256>,
    /// LP held by the creator (the first mint's recipient), where known.
    pub lp_creator: Option<U256>,
}
