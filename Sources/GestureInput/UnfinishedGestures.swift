import GestureKit

/// Touchpad gestures the system will never end, ended here, once, for every live source.
///
/// Rule: a touchpad gesture in progress on a device is cancelled, where it last was, right
/// before the device's removal (at the removal's time; libinput's and a compositor's carry
/// none, so the source's time then, by `SourceTime`'s rule), before its pointer leaves the
/// window (at the leave's time), and when the input ends (`cancelAll(at:)`), by the engine's
/// rule for a cancel (`TouchpadGestureEvent.cancelled`). No system ends such a gesture: libinput
/// drops a removed device's, a compositor stops sending a gesture to a window the pointer
/// left. Sources only translate what they read; the live loop (`LiveInputRun`) and GTK's host
/// (`GTKGestureInput`) put every event through one of these before the client hears it, so a
/// client, an engine or a recording, hears the cancel as if the system had sent it.
package struct UnfinishedGestures: Sendable {
    /// Each device's gesture in progress: its begin or latest update.
    private var current: [InputDeviceID: TouchpadGestureEvent] = [:]
    /// The time of the events seen so far: the time of a cancel the system gave none.
    private var time = SourceTime()

    package init() {}

    /// Notes `event`, which the source made; returns the cancel the client hears first, if
    /// `event` ends a device's gesture in progress (its removal, its pointer's leave).
    @inline(__always)
    package mutating func cancel(before event: InputEvent) -> InputEvent? {
        time.note(event)
        switch event {
        case let .touchpadGesture(gesture):
            switch gesture.phase {
            case .begin, .update: current[gesture.device] = gesture
            case .end, .cancel: current[gesture.device] = nil
            }
            return nil
        case let .deviceRemoved(device, removal):
            return cancel(device, at: removal ?? time.now)
        case let .pointer(pointer) where pointer.kind == .leave:
            return cancel(pointer.device, at: pointer.time)
        default:
            return nil
        }
    }

    /// The cancels of every gesture still in progress, in the order of their devices: the
    /// input ends (GTK's host detaches).
    package mutating func cancelAll(at time: Instant) -> [InputEvent] {
        current.keys.sorted().compactMap { cancel($0, at: time) }
    }

    private mutating func cancel(_ device: InputDeviceID, at time: Instant) -> InputEvent? {
        guard !current.isEmpty, let gesture = current.removeValue(forKey: device) else { return nil }
        return .touchpadGesture(gesture.cancelled(at: time))
    }
}
