//! Timestamps (docs/format.md 2.2): nanoseconds since 1970-01-01 00:00:00 UTC as a `u64`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An FBE timestamp: nanoseconds since 1970-01-01 00:00:00 UTC.
///
/// ```
/// let t = fbe::Timestamp(1_577_836_800_123_456_789);
/// let back = fbe::Timestamp::from(std::time::SystemTime::from(t));
/// assert_eq!(back, t);
/// assert!(fbe::Timestamp::utc() > t);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The schema constant `epoch` (0).
    pub const EPOCH: Timestamp = Timestamp(0);

    /// The current time (schema constant `utc`); times before 1970 are the epoch.
    pub fn utc() -> Timestamp {
        Timestamp::from(SystemTime::now())
    }

    /// Nanoseconds since the epoch.
    pub fn nanos(self) -> u64 {
        self.0
    }
}

impl From<SystemTime> for Timestamp {
    /// Times before 1970 are the epoch, times past the year 2554 the largest timestamp.
    fn from(t: SystemTime) -> Self {
        let nanos = t.duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        Timestamp(u64::try_from(nanos).unwrap_or(u64::MAX))
    }
}

impl From<Timestamp> for SystemTime {
    fn from(t: Timestamp) -> Self {
        UNIX_EPOCH + Duration::from_nanos(t.0)
    }
}
