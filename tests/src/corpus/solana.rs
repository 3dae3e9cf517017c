//! The Solana fixture's launches (`rig/solana_launches.mjs`) and the band
//! the service must give each. Every one is a pump.fun curve a few hours
//! old with under $50,000 of liquidity, so `caution` is the floor; the
//! launch decides the rest.

use super::{Proof, Truth, Venue};

/// The Solana rows of the detection report.
pub fn table() -> Vec<Truth> {
    let t = |name, labels, present, absent| Truth {
        venue: Venue::Sol,
        ..Truth::new(name, "", labels, present, absent, Proof::Canned)
    };
    vec![
        // The creator's buy and a co-signer's in the create transaction, three
        // buys it paid for in the same slot (37% bundled, 33% still held), and
        // 80% of its own sold within the hour.
        t(
            "launch_bundle",
            &["risky", "critical"],
            &[
                "launch_cluster",
                "bundled_launch",
                "creator_sold",
                "single_holder_dominance",
            ],
            &[],
        ),
        // Ten wallets the creator funded five slots before its create buy 35%
        // in the first three slots.
        t(
            "launch_funded",
            &["risky", "critical"],
            &[
                "launch_cluster",
                "bundled_launch",
                "single_holder_dominance",
            ],
            &["creator_sold"],
        ),
        // Four strangers buy 1% each in the next slot: snipers, reported only.
        t(
            "launch_clean",
            &["caution"],
            &["bundled_launch"],
            &[
                "launch_cluster",
                "creator_sold",
                "single_holder_dominance",
                "whale_concentration",
            ],
        ),
    ]
}
