//! The analysis floor: a token's facts read from its chain, its checks,
//! trade simulation and scoring, wallets, and its creator's history. It
//! reads the chains and the store below it and knows nothing of HTTP,
//! keys or metering.

pub mod config;
pub mod metrics;
pub mod overrides;
pub mod presign;
pub mod scoring;
pub mod screening;
pub mod simulation;
pub mod tokens;
pub mod wallets;
