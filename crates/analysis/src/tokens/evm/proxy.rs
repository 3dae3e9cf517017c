//! What is known of a token's owner and of the proxy it may be.

use alloy_primitives::Address;

use super::control::Control;
use riskintel_chains::evm::DEAD;

/// What is known of the token's owner.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnerFact {
    /// `owner()` and `getOwner()` both failed: no owner function.
    NoOwnerFunction,
    /// The owner address (zero or dead when renounced).
    Address(Address),
}

impl OwnerFact {
    /// The owner, unless there is none or it is renounced (zero or dead).
    pub fn active(&self) -> Option<Address> {
        match self {
            OwnerFact::Address(a) if !a.is_zero() && *a != DEAD => Some(*a),
            _ => None,
        }
    }
}

/// Proxy facts.
#[derive(Clone, Debug, Default)]
pub struct ProxyFacts {
    /// EIP-1967 implementation (or legacy OpenZeppelin slot).
    pub implementation: Option<Address>,
    /// EIP-1967 admin.
    pub admin: Option<Address>,
    /// EIP-1967 beacon.
    pub beacon: Option<Address>,
    /// EIP-1167 clone target.
    pub clone_of: Option<Address>,
    /// Whether the admin has no code (an EOA); None when there is no admin.
    pub admin_is_eoa: Option<bool>,
    /// Who controls the admin, when it is a contract and could be read:
    /// its own delay or signers, or else (a ProxyAdmin) whoever its
    /// `owner()` is — a key, a Safe, a timelock and its delay.
    pub admin_control: Option<Control>,
    /// What the admin's `owner()` answers (a ProxyAdmin's owner), if anything.
    pub admin_owner: Option<Address>,
}

impl ProxyFacts {
    /// Whether this is a proxy of any kind.
    pub fn is_proxy(&self) -> bool {
        self.implementation.is_some() || self.beacon.is_some() || self.clone_of.is_some()
    }
}
