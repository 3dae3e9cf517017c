//! Signed webhooks (issue 17; the plan is `docs/design/webhooks.md`). Built
//! so far: the signature a receiver verifies ([`signing`]) and the guard
//! that keeps deliveries off private networks ([`guard`]). Subscriptions,
//! the outbox and the delivery worker come next.

pub mod guard;
pub mod signing;
