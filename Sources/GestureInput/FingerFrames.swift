import GestureKit

/// Touch frames made from sources that report one finger at a time (SDL's finger events,
/// GDK's touch events): consecutive changes of one device at one timestamp, of distinct
/// fingers, make one frame, as a hardware frame would.
public struct FingerFrames: Sendable {
    private var pending: TouchFrame?

    public init() {}

    /// Adds `change` of `device` at `time`; returns the frame it closed, if any.
    public mutating func add(_ change: TouchChange, at time: Instant, device: InputDeviceID,
                             kind: InputDeviceKind = .touchscreen) -> TouchFrame? {
        var closed: TouchFrame?
        if let p = pending, p.time != time || p.device != device || p.deviceKind != kind
            || p.changes.contains(where: { $0.sourceID == change.sourceID }) {
            closed = p
            pending = nil
        }
        if pending == nil { pending = TouchFrame(time: time, device: device, deviceKind: kind) }
        pending!.changes.append(change)
        return closed
    }

    /// The frame still collecting fingers, closed (nil when there is none).
    public mutating func flush() -> TouchFrame? {
        defer { pending = nil }
        return pending
    }
}
