//! Time, injectable so that windows, periods and rotation grace can be
//! tested without waiting.

use std::sync::Mutex;

use chrono::{DateTime, Duration, SubsecRound, Utc};

/// A source of the current time.
pub trait Clock: Send + Sync + 'static {
    /// Now, in UTC.
    fn now(&self) -> DateTime<Utc>;

    /// Now, to the whole second: the resolution times are stored at, so
    /// stored times compare the same way in every backend.
    fn now_seconds(&self) -> DateTime<Utc> {
        self.now().trunc_subsecs(0)
    }
}

/// The system clock.
#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that moves only when told to (tests).
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<DateTime<Utc>>,
}

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: DateTime<Utc>) -> Self {
        ManualClock {
            now: Mutex::new(start),
        }
    }

    /// Move the clock forward.
    pub fn advance(&self, by: Duration) {
        *self.now.lock().expect("clock lock") += by;
    }

    /// Set the clock.
    pub fn set(&self, to: DateTime<Utc>) {
        *self.now.lock().expect("clock lock") = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().expect("clock lock")
    }
}
