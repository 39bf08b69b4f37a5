import GestureKit

/// The time of the events a source makes up itself, which the system gave no time (a
/// cancellation, a device's leaving, the pointer's enter or leave): the time of the last event
/// the source handed out, or now on CLOCK_MONOTONIC if that is later. The one statement of that
/// rule: libinput's context, a Wayland connection and GTK's host each keep one
/// (`InputEventSource`'s contract).
package struct SourceTime: Sendable {
    /// The latest time of the events handed out so far; nil before the first.
    package private(set) var last: Instant?

    package init() {}

    /// `time`, of an event handed out, is the latest so far if it is later than the last.
    package mutating func note(_ time: Instant) {
        last = max(last ?? time, time)
    }

    /// The time of `event`, if it has one (`note(_:)`).
    package mutating func note(_ event: InputEvent) {
        if let time = event.time { note(time) }
    }

    /// The time of an event the source makes up now.
    package var now: Instant { max(last ?? .zero, MonotonicClock.now()) }
}
