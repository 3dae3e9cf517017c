//! Wire names of the enums the service also stores, and (with the `sqlx`
//! feature) their storage as those names in TEXT columns.

use crate::{
    AlertKind, DeliveryState, Plan, ReportKind, ReportStatus, RiskLabel, Scope, Severity,
    WebhookEventType, WebhookState,
};

/// An enum with a fixed wire name per variant.
pub trait WireName: Sized + Copy + 'static {
    /// Every variant.
    const VARIANTS: &'static [Self];
    /// The variant's wire name.
    fn wire_name(self) -> &'static str;
    /// The variant with this wire name.
    fn from_wire_name(name: &str) -> Option<Self> {
        Self::VARIANTS
            .iter()
            .copied()
            .find(|v| v.wire_name() == name)
    }
}

/// Implements [`WireName`] from a list of variants and names.
#[macro_export]
macro_rules! wire_names {
    ($t:ty { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $crate::stored::WireName for $t {
            const VARIANTS: &'static [Self] = &[$(<$t>::$variant),*];
            fn wire_name(self) -> &'static str {
                match self {
                    $(<$t>::$variant => $name,)*
                }
            }
        }
    };
}

/// Implements `sqlx::Type`, `Encode` and `Decode` for [`WireName`] enums,
/// stored as their wire names in TEXT columns (the caller depends on sqlx).
#[macro_export]
macro_rules! text_column {
    ($($t:ty),* $(,)?) => {$(
        impl<DB: ::sqlx::Database> ::sqlx::Type<DB> for $t
        where
            String: ::sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <String as ::sqlx::Type<DB>>::type_info()
            }
            fn compatible(ty: &DB::TypeInfo) -> bool {
                <String as ::sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: ::sqlx::Database> ::sqlx::Encode<'q, DB> for $t
        where
            String: ::sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as ::sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<::sqlx::encode::IsNull, ::sqlx::error::BoxDynError> {
                <String as ::sqlx::Encode<'q, DB>>::encode($crate::stored::WireName::wire_name(*self).to_string(), buf)
            }
        }

        impl<'r, DB: ::sqlx::Database> ::sqlx::Decode<'r, DB> for $t
        where
            String: ::sqlx::Decode<'r, DB>,
        {
            fn decode(value: <DB as ::sqlx::Database>::ValueRef<'r>) -> Result<Self, ::sqlx::error::BoxDynError> {
                let text = <String as ::sqlx::Decode<'r, DB>>::decode(value)?;
                <$t as $crate::stored::WireName>::from_wire_name(&text)
                    .ok_or_else(|| format!("{text:?} is not a stored {}", stringify!($t)).into())
            }
        }
    )*};
}

wire_names!(Plan { Free = "free", Pro = "pro", ProPlus = "pro_plus" });
wire_names!(Severity { Info = "info", Low = "low", Medium = "medium", High = "high", Critical = "critical" });
wire_names!(RiskLabel { Safe = "safe", Caution = "caution", Risky = "risky", Critical = "critical" });
wire_names!(AlertKind {
    NewToken = "new_token",
    LabelChanged = "label_changed",
    HoneypotDetected = "honeypot_detected",
    LiquidityRemoved = "liquidity_removed",
    OwnershipChanged = "ownership_changed",
    ProxyUpgraded = "proxy_upgraded",
    SupplyMinted = "supply_minted",
    FeeChanged = "fee_changed",
    AuthorityChanged = "authority_changed",
    OverrideChanged = "override_changed",
    SanctionsListUpdated = "sanctions_list_updated",
});

wire_names!(WebhookState { Active = "active", Disabled = "disabled" });
wire_names!(WebhookEventType { RiskAlert = "risk_alert", Ping = "ping", ReportAnswered = "report_answered" });
wire_names!(ReportKind { FalsePositive = "false_positive", FalseNegative = "false_negative", Other = "other" });
wire_names!(ReportStatus { Open = "open", Accepted = "accepted", Rejected = "rejected" });
wire_names!(DeliveryState { Pending = "pending", Delivered = "delivered", Failed = "failed" });

impl WireName for crate::ChainId {
    const VARIANTS: &'static [Self] = &crate::ChainId::ALL;
    fn wire_name(self) -> &'static str {
        self.id()
    }
}

impl WireName for Scope {
    const VARIANTS: &'static [Self] = &Scope::ALL;
    fn wire_name(self) -> &'static str {
        self.as_str()
    }
}

#[cfg(feature = "sqlx")]
text_column!(
    crate::ChainId,
    Plan,
    Severity,
    RiskLabel,
    AlertKind,
    Scope,
    WebhookState,
    WebhookEventType,
    DeliveryState,
    ReportKind,
    ReportStatus
);

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_agrees<T: WireName + serde::Serialize>() {
        for v in T::VARIANTS {
            assert_eq!(
                serde_json::to_value(v).unwrap(),
                serde_json::json!(v.wire_name())
            );
            assert_eq!(
                T::from_wire_name(v.wire_name()).map(|x| x.wire_name()),
                Some(v.wire_name())
            );
        }
    }

    #[test]
    fn wire_names_are_the_serde_names() {
        serde_agrees::<Plan>();
        serde_agrees::<Severity>();
        serde_agrees::<RiskLabel>();
        serde_agrees::<AlertKind>();
        serde_agrees::<Scope>();
        serde_agrees::<WebhookState>();
        serde_agrees::<WebhookEventType>();
        serde_agrees::<DeliveryState>();
        serde_agrees::<ReportKind>();
        serde_agrees::<ReportStatus>();
    }
}
