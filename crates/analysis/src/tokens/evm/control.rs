//! Who holds a power: a key, a contract without delay, a multisig, a
//! timelock, or anyone. Read with `allowFailure` calls that only a
//! timelock or a Safe answers; the weight of a power follows (`product.md`:
//! power times control).

use alloy_primitives::{Address, U256};
use riskintel_types::Severity;
use serde_json::{json, Value};

use crate::scoring::band;
use riskintel_chains::evm::abi::IControl;
use riskintel_chains::evm::multicall::{Call, Multicall, Results};

/// A timelock with at least this delay (seconds) caps a power at `medium`.
pub const TIMELOCK_FLOOR_SECONDS: u64 = 86_400;

/// Who holds a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// One private key.
    Eoa,
    /// A contract that is neither a recognised timelock nor a Safe: counts in full.
    Contract,
    /// A Safe multisig: a contract without delay, counts in full.
    Safe {
        /// Signatures needed.
        threshold: u64,
        /// Signers.
        owners: usize,
    },
    /// A timelock: calls wait this long.
    Timelock {
        /// Minimum delay, seconds.
        delay_seconds: u64,
    },
    /// Anyone at all: a fresh address with no privilege.
    Anyone,
}

impl Control {
    /// The degree of a power held under this control: a timelock of at
    /// least a day caps it at medium (0.2); anything else counts in full.
    pub fn cap(self, severity: Severity, weight: f64) -> (Severity, f64) {
        match self {
            Control::Timelock { delay_seconds } if delay_seconds >= TIMELOCK_FLOOR_SECONDS => {
                (severity.min(Severity::Medium), weight.min(band::CAUTION))
            }
            _ => (severity, weight),
        }
    }

    /// As words, after "the owner 0x… ".
    pub fn words(self) -> String {
        match self {
            Control::Eoa => "(one private key)".into(),
            Control::Contract => "(a contract without a recognised delay)".into(),
            Control::Safe { threshold, owners } => {
                format!("(a Safe multisig, {threshold} of {owners}, no delay)")
            }
            Control::Timelock { delay_seconds } => {
                format!("(a timelock: calls wait {} hours)", delay_seconds / 3_600)
            }
            Control::Anyone => String::new(),
        }
    }

    /// As evidence.
    pub fn raw(self) -> Value {
        match self {
            Control::Eoa => json!({"kind": "eoa"}),
            Control::Contract => json!({"kind": "contract"}),
            Control::Safe { threshold, owners } => {
                json!({"kind": "safe", "threshold": threshold, "owners": owners})
            }
            Control::Timelock { delay_seconds } => {
                json!({"kind": "timelock", "delay_seconds": delay_seconds})
            }
            Control::Anyone => json!({"kind": "anyone"}),
        }
    }
}

/// Who controls a proxy's contract admin, and whether that is the admin's
/// `owner()` rather than the admin itself (a ProxyAdmin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdminControl {
    /// The control.
    pub control: Control,
    /// Whether it is the control of the admin's owner.
    pub via_owner: bool,
}

/// The control reads of one address, waiting in a Multicall3.
pub struct Reads {
    min_delay: Call<IControl::getMinDelayCall>,
    delay: Call<IControl::delayCall>,
    threshold: Call<IControl::getThresholdCall>,
    owners: Call<IControl::getOwnersCall>,
}

/// Add the control reads of `address` to `calls`.
pub fn plan(address: Address, calls: &mut Multicall) -> Reads {
    Reads {
        min_delay: calls.add(address, IControl::getMinDelayCall {}),
        delay: calls.add(address, IControl::delayCall {}),
        threshold: calls.add(address, IControl::getThresholdCall {}),
        owners: calls.add(address, IControl::getOwnersCall {}),
    }
}

impl Reads {
    /// The control, from the answers and whether the address has code.
    pub fn classify(self, results: &Results, has_code: bool) -> Control {
        if !has_code {
            return Control::Eoa;
        }
        let seconds = |v: U256| u64::try_from(v).unwrap_or(u64::MAX);
        if let Some(delay) = results
            .get(self.min_delay)
            .or_else(|| results.get(self.delay))
        {
            return Control::Timelock {
                delay_seconds: seconds(delay),
            };
        }
        match (results.get(self.threshold), results.get(self.owners)) {
            (Some(threshold), Some(owners)) if !owners.is_empty() => Control::Safe {
                threshold: seconds(threshold),
                owners: owners.len(),
            },
            _ => Control::Contract,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_long_timelock_caps_a_power_at_medium() {
        let day = Control::Timelock {
            delay_seconds: 2 * 86_400,
        };
        assert_eq!(day.cap(Severity::Critical, 0.8), (Severity::Medium, 0.2));
        let hour = Control::Timelock {
            delay_seconds: 3_600,
        };
        assert_eq!(hour.cap(Severity::High, 0.5), (Severity::High, 0.5));
        assert_eq!(
            Control::Safe {
                threshold: 2,
                owners: 3
            }
            .cap(Severity::High, 0.5),
            (Severity::High, 0.5)
        );
    }
}
