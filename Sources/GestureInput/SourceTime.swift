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

/// A source's touchpad gesture in progress on one device, and its cancel when the system will
/// not end it (the device vanished, the pointer left the window, the input ends), at the
/// source's time (`SourceTime`), by the engine's rule (`TouchpadGestureEvent.cancelled`).
/// libinput's context, a Wayland seat and GTK's reader each keep one.
package struct TouchpadGestureInProgress: Sendable {
    /// The gesture's last event (its begin or latest update); nil when none is in progress.
    package private(set) var current: TouchpadGestureEvent?

    package init() {}

    /// `event`, handed out by the source: a begin or an update is the gesture in progress, an
    /// end or a cancel ends it.
    package mutating func track(_ event: TouchpadGestureEvent) {
        switch event.phase {
        case .begin, .update: current = event
        case .end, .cancel: current = nil
        }
    }

    /// The cancel of the gesture in progress, if there is one, at `time`, at `location` (nil:
    /// where the gesture last was); the gesture is over.
    package mutating func cancel(at time: Instant, location: Point? = nil) -> TouchpadGestureEvent? {
        guard let event = current else { return nil }
        current = nil
        return event.cancelled(at: time, location: location)
    }
}
