import GestureKit

/// Event times that come as 32-bit millisecond stamps (a Wayland compositor's, GDK's, an X
/// server's), put on the monotonic clock as `Instant`s:
/// - a stamp is widened to the 64-bit millisecond count congruent to it modulo 2^32 nearest
///   the last one (the stamps wrap every 49.7 days);
/// - a source whose clock is not CLOCK_MONOTONIC (its first stamp more than
///   `foreignClockLimit` from now: an X server started long ago, a nested compositor) is
///   shifted once onto it, keeping its spacing;
/// - a stamp of 0 is no time (GDK_CURRENT_TIME, X's CurrentTime: GTK's Wayland backend stamps
///   a pointer's crossing 0, `wl_pointer.enter` having no time): it is now (never before the
///   last stamp), and it neither sets the shift nor counts as the last stamp. Taken as a time,
///   a first 0 (a GTK window's focus change, read before any input) shifted every later stamp
///   by the machine's uptime.
package struct MillisecondStamps: Sendable {
    /// How far (milliseconds) a first stamp may lie from CLOCK_MONOTONIC and still be taken as
    /// on it.
    package static let foreignClockLimit: Int64 = 10_000

    private var offset: Int64?
    private var last: Int64?

    package init() {}

    /// `raw` on the monotonic clock.
    package mutating func instant(_ raw: UInt32, now: @autoclosure () -> Instant = MonotonicClock.now()) -> Instant {
        if raw == 0 {
            let current = now()
            guard let last, let offset else { return current }
            return max(current, Instant(nanoseconds: (last + offset) &* 1_000_000))
        }
        let reference = last ?? (now().nanoseconds / 1_000_000)
        let ms = Self.widen(raw, near: reference)
        last = ms
        if offset == nil {
            let nowMs = now().nanoseconds / 1_000_000
            offset = abs(nowMs - ms) > Self.foreignClockLimit ? nowMs - ms : 0
        }
        return Instant(nanoseconds: (ms + offset!) &* 1_000_000)
    }

    /// The 64-bit millisecond count congruent to `raw` modulo 2^32 nearest `reference`.
    package static func widen(_ raw: UInt32, near reference: Int64) -> Int64 {
        let wrap: Int64 = 1 << 32
        var ms = (reference & ~(wrap - 1)) | Int64(raw)
        if ms - reference > wrap / 2 { ms -= wrap } else if reference - ms > wrap / 2 { ms += wrap }
        return ms
    }
}
