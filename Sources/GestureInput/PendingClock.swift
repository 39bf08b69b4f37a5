import GestureKit

/// When a recording needs a `clock` line (docs/RECORDING.md): the loop moved its client's
/// clock on with no input (`advance(to:)`), and what follows depends on it. An event stamped
/// at or before that time (read late) happens at the clock's time, and a removal without a
/// time takes the clock's: a replay must move its clock there first. A later event passes it
/// anyway; a device's arrival does not depend on it. The end of input does: the client
/// finishes at its clock's time.
struct PendingClock {
    /// The latest time the loop moved the client's clock to with no input, until an event
    /// makes it matter or passes it.
    private(set) var time: Instant?

    /// The loop moved the client's clock to `now`.
    mutating func advanced(to now: Instant) {
        time = max(time ?? now, now)
    }

    /// The clock line `event` needs written before it, if any.
    mutating func line(before event: InputEvent) -> Instant? {
        guard let clock = time else { return nil }
        switch event {
        case .deviceAdded:
            return nil
        case .deviceRemoved(_, nil):
            time = nil
            return clock
        default:
            time = nil
            if let t = event.time, t <= clock { return clock }
            return nil
        }
    }

    /// The clock line the end of input needs, if any.
    mutating func atEnd() -> Instant? {
        defer { time = nil }
        return time
    }
}
