import GestureKit

/// The input a source makes, in order, for sources that report one finger at a time (SDL's
/// finger events): consecutive changes of one device at one timestamp, of distinct fingers,
/// make one touch frame, as a hardware frame would. A frame still collecting fingers is
/// closed by any other event appended after it, by `close()`, and by `take()`.
public struct FingerFrames: Sendable {
    private var pending: TouchFrame?
    private var events: [InputEvent] = []

    public init() {}

    /// Adds `change` of `device` at `time` (closing the frame under way if it cannot join it).
    public mutating func add(_ change: TouchChange, at time: Instant, device: InputDeviceID,
                             kind: InputDeviceKind = .touchscreen) {
        if let p = pending, p.time != time || p.device != device || p.deviceKind != kind
            || p.changes.contains(where: { $0.sourceID == change.sourceID }) {
            close()
        }
        if pending == nil { pending = TouchFrame(time: time, device: device, deviceKind: kind) }
        pending!.changes.append(change)
    }

    /// Appends an event that is no finger, after the frame under way.
    public mutating func append(_ event: InputEvent) {
        close()
        events.append(event)
    }

    /// Closes the frame still collecting fingers, if there is one.
    public mutating func close() {
        if let p = pending { events.append(.touchFrame(p)) }
        pending = nil
    }

    /// Everything made so far, the last frame closed; empties the buffer.
    public mutating func take() -> [InputEvent] {
        close()
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }
}
