import GestureKit

/// One `wl_touch.frame`'s changes, as a value: what `WaylandSeat` feeds it (each `down`,
/// `motion` and `up`, with its own event's time), and the touch frames the frame makes at its
/// end (`finish`):
/// - a compositor may merge several hardware frames into one `wl_touch.frame` (a touch moving
///   twice in it): a change of a touch already changed in this frame starts a new touch frame,
///   so each hardware frame keeps its own time and no velocity sample is lost;
/// - a touch frame's time is that of its own last event, never earlier than the touch frame
///   before it in the same `wl_touch.frame` (times never go backwards);
/// - changes keep the order the compositor sent them in (downs, moves and ups alike); a frame
///   with one change per touch stays one touch frame.
struct TouchFrameSplit {
    private var changes: [(time: Instant, change: TouchChange)] = []

    /// Whether no change came since the last frame.
    var isEmpty: Bool { changes.isEmpty }

    mutating func append(_ change: TouchChange, at time: Instant) {
        changes.append((time, change))
    }

    /// Forgets the frame's changes (the touches are cancelled, the touch capability is gone).
    mutating func removeAll() { changes.removeAll() }

    /// The frame's touch frames, in order (none for an empty frame); the frame starts empty again.
    mutating func finish(device: InputDeviceID) -> [TouchFrame] {
        guard !changes.isEmpty else { return [] }
        var frames: [TouchFrame] = []
        var current: [TouchChange] = []
        var time = changes[0].time
        for (t, change) in changes {
            if current.contains(where: { $0.sourceID == change.sourceID }) {
                frames.append(TouchFrame(time: time, device: device, deviceKind: .touchscreen, changes: current))
                current.removeAll(keepingCapacity: true)
            }
            current.append(change)
            time = max(time, t)
        }
        frames.append(TouchFrame(time: time, device: device, deviceKind: .touchscreen, changes: current))
        changes.removeAll(keepingCapacity: true)
        return frames
    }
}
