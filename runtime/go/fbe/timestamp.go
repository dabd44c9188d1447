package fbe

import "time"

// Timestamp is an FBE timestamp: nanoseconds since 1970-01-01 00:00:00 UTC (docs/format.md 2.2).
type Timestamp uint64

// Epoch is the schema constant epoch.
const Epoch Timestamp = 0

// UTC is the current time (schema constant utc).
func UTC() Timestamp { return Timestamp(time.Now().UnixNano()) }

// Time is the timestamp as a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.Unix(0, int64(t)).UTC() }

// TimestampOf is the timestamp of a time.Time (times before 1970 wrap, as the original's u64 does).
func TimestampOf(t time.Time) Timestamp { return Timestamp(t.UnixNano()) }
