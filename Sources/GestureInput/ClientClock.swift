import GestureKit

/// A client's clock (`LiveInputClient`): zero at the first event with a time. The one place the
/// times of live input are rebased, once, before the client sees them: the live loop
/// (`LiveInputRun`) keeps one, and so does GTK's host (`GTKGestureInput`), whose loop is
/// GLib's. Sources never rebase.
package struct ClientClock: Sendable {
    /// The monotonic time of the first timed event: time zero of the client's clock.
    package private(set) var origin: Instant?

    package init() {}

    /// `event` on the client's clock. The first event with a time sets the origin; an event
    /// before it (one with no time) is handed on as it is.
    package mutating func rebased(_ event: InputEvent) -> InputEvent {
        if origin == nil, let time = event.time { origin = time }
        guard let origin else { return event }
        return event.rebased(by: origin)
    }

    /// `monotonic` on the client's clock, which starts there when no event has started it (a
    /// step the source reports without an input event: a drag from another app).
    package mutating func startingTime(_ monotonic: Instant) -> Instant {
        if origin == nil { origin = monotonic }
        return clientTime(monotonic)!
    }

    /// The monotonic instant `monotonic` on the client's clock; nil before the first event.
    package func clientTime(_ monotonic: Instant) -> Instant? {
        origin.map { Instant(nanoseconds: monotonic.nanoseconds &- $0.nanoseconds) }
    }

    /// The client's time `time` on the monotonic clock; nil before the first event.
    package func monotonic(_ time: Instant) -> Instant? {
        origin.map { Instant(nanoseconds: time.nanoseconds &+ $0.nanoseconds) }
    }
}
