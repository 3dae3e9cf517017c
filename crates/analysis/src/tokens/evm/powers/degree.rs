//! The powers a role can exercise, and how each is weighed: its degree
//! held without delay, capped by who holds it (`product.md`: power times
//! control), and a mint by its bound.

use riskintel_types::{CheckId, Severity, SignalCategory};

use super::super::control::Control;
use crate::scoring::band;
use crate::simulation::abi::IPrivilegeProbe::Effect;

/// A power a role can exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Power {
    Mint,
    BurnFromOthers,
    SeizeBalance,
    Blacklist,
    Pause,
    SetLimits,
    SetFees,
    SetFeePerAddress,
    ReclaimOwnership,
}

pub(super) const POWERS: [Power; 9] = [
    Power::Mint,
    Power::BurnFromOthers,
    Power::SeizeBalance,
    Power::Blacklist,
    Power::Pause,
    Power::SetLimits,
    Power::SetFees,
    Power::SetFeePerAddress,
    Power::ReclaimOwnership,
];

impl Power {
    pub(super) fn check(self) -> CheckId {
        match self {
            Power::Mint => CheckId::MintCapability,
            Power::BurnFromOthers => CheckId::BurnFromOthers,
            Power::SeizeBalance => CheckId::SeizeBalance,
            Power::Blacklist => CheckId::BlacklistCapability,
            Power::Pause => CheckId::PauseCapability,
            Power::SetLimits => CheckId::MaxTxModifiable,
            Power::SetFees => CheckId::TaxModifiable,
            Power::SetFeePerAddress => CheckId::TaxModifiablePerAddress,
            Power::ReclaimOwnership => CheckId::OwnershipReclaimable,
        }
    }

    /// Whether observing it needs a fresh wallet able to trade before the call.
    pub(super) fn needs_trading(self) -> bool {
        matches!(
            self,
            Power::Blacklist
                | Power::Pause
                | Power::SetLimits
                | Power::SetFees
                | Power::SetFeePerAddress
        )
    }

    /// An allow-listed issuer's power (mint, freeze, pause, blacklist): info.
    pub(super) fn issuer_power(self) -> bool {
        matches!(self, Power::Mint | Power::Blacklist | Power::Pause)
    }

    /// Title, category, severity and weight when held without delay; the fee reached for fee powers.
    pub(super) fn degree(self, fee: f64) -> (&'static str, SignalCategory, Severity, f64) {
        match self {
            Power::Mint => (
                "Supply can be minted",
                SignalCategory::Contract,
                Severity::High,
                band::RISKY,
            ),
            Power::BurnFromOthers => (
                "Holders' tokens can be burned",
                SignalCategory::Contract,
                Severity::Critical,
                band::CRITICAL,
            ),
            Power::SeizeBalance => (
                "Holders' tokens can be taken",
                SignalCategory::Contract,
                Severity::Critical,
                band::CRITICAL,
            ),
            // A honeypot its holder can switch on for anyone (`product.md`):
            // risky at least on its own, held without delay.
            Power::Blacklist => (
                "Addresses can be blocked",
                SignalCategory::Trading,
                Severity::High,
                band::RISKY,
            ),
            Power::Pause => (
                "Trading can be stopped",
                SignalCategory::Trading,
                Severity::Medium,
                band::CAUTION,
            ),
            Power::SetLimits => (
                "Transaction limits can be changed",
                SignalCategory::Trading,
                Severity::Medium,
                0.15,
            ),
            Power::SetFees if fee > 0.25 => (
                "Fees can be raised",
                SignalCategory::Trading,
                Severity::High,
                0.35,
            ),
            Power::SetFees if fee >= 0.10 => (
                "Fees can be raised",
                SignalCategory::Trading,
                Severity::Medium,
                0.15,
            ),
            Power::SetFees => (
                "Fees can be changed",
                SignalCategory::Trading,
                Severity::Low,
                0.05,
            ),
            Power::SetFeePerAddress => (
                "Fees can be set per address",
                SignalCategory::Trading,
                Severity::Critical,
                0.6,
            ),
            Power::ReclaimOwnership => (
                "Ownership can be taken back",
                SignalCategory::Ownership,
                Severity::High,
                0.35,
            ),
        }
    }
}

/// Whether the mint `e` showed is bounded by the code: from the state
/// before it, a mint of a twentieth of the supply was refused, and right
/// after it the same call minted no more (a cap on each mint and on how
/// often: a few percent a year, say). `product.md`: weighed by its bound.
pub(super) fn bounded_mint(e: &Effect) -> bool {
    e.boundProbed && !e.largeMintOk && !e.againMintOk
}

/// A power's title, category, severity and weight as exercised in `e` by a
/// role under `control`: its degree, capped by the control; a bounded mint
/// is `low` at most, and `info` behind a timelock of a day or more.
pub(super) fn weighed(
    power: Power,
    fee: f64,
    bounded: bool,
    control: Control,
) -> (&'static str, SignalCategory, Severity, f64) {
    let (title, category, severity, weight) = power.degree(fee);
    if power == Power::Mint && bounded {
        return match control {
            Control::Timelock { delay_seconds }
                if delay_seconds >= super::super::control::TIMELOCK_FLOOR_SECONDS =>
            {
                (
                    "Supply can be minted within a bound",
                    category,
                    Severity::Info,
                    0.0,
                )
            }
            _ => (
                "Supply can be minted within a bound",
                category,
                Severity::Low,
                0.15,
            ),
        };
    }
    let (severity, weight) = control.cap(severity, weight);
    (title, category, severity, weight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_mint_is_low_with_a_key_and_info_behind_a_timelock() {
        let timelock = Control::Timelock {
            delay_seconds: 2 * 86_400,
        };
        let (_, _, severity, weight) = weighed(Power::Mint, 0.0, true, Control::Eoa);
        assert_eq!((severity, weight), (Severity::Low, 0.15));
        let (_, _, severity, weight) = weighed(Power::Mint, 0.0, true, timelock);
        assert_eq!((severity, weight), (Severity::Info, 0.0));
        // Unbounded: risky with a key, caution behind the timelock.
        let (_, _, severity, weight) = weighed(Power::Mint, 0.0, false, Control::Eoa);
        assert_eq!((severity, weight), (Severity::High, band::RISKY));
        let (_, _, severity, weight) = weighed(Power::Mint, 0.0, false, timelock);
        assert_eq!((severity, weight), (Severity::Medium, band::CAUTION));
        // Only a mint has a bound.
        let pause = weighed(Power::Pause, 0.0, true, Control::Eoa);
        assert_eq!((pause.2, pause.3), (Severity::Medium, band::CAUTION));
    }
}
