import GestureKit
import GestureTraces

/// Plays a recording into a wall on virtual time, with the built-in decoder: the
/// recording's touchscreen axes map onto the wall's screen (axis minimum → 0, maximum → the
/// screen's size), as `gesturekit replay` maps them onto a scene.
public enum PhotoWallReplay {
    /// Replays `path` into `wall`. `onEvent` is called for every event the wall reports,
    /// once the step that caused it is complete (so drawing the wall then shows its result):
    /// a deadline's events (a single tap fires when the double tap's interval runs out) are
    /// reported at the deadline, before the next frame. At the end every pending deadline
    /// fires, then touches still down are cancelled.
    ///
    /// The trace is read whole once first, so a malformed trace throws (`TraceError`) before
    /// anything happens.
    /// `mapping`: how the touchscreen lands on the wall (rotation, calibration, region).
    ///
    /// Time is virtual: the display link's frames (the content decelerating or bouncing after
    /// a fling) are deadlines like the recognizers', fired in order between the recording's
    /// frames. `snapshots`: times of the recording (seconds from its start, as the events')
    /// at which `onSnapshot` is called with the wall as it is then, everything due at or
    /// before that time done (a picture mid-fling); a time after the end of the recording
    /// shows the wall once everything has come to rest.
    public static func run(path: String, into wall: PhotoWall, mapping: TouchMapping = .identity,
                           snapshots: [Instant] = [], onSnapshot: (Instant) throws -> Void = { _ in },
                           onEvent: (PhotoWallEvent) throws -> Void) throws {
        let reader = try TraceReader(path: path, screen: wall.screen, mapping: mapping)
        try reader.run { _ in }
        var removed: [(InputDeviceID, Instant)] = []

        func drain() throws {
            for event in wall.takeEvents() { try onEvent(event) }
        }
        var pendingSnapshots = snapshots.sorted()[...]
        /// Deadlines and snapshots before `time` (all deadlines and snapshots when nil), in
        /// time order; a snapshot at a deadline's instant comes after it.
        func runDeadlines(before time: Instant?) throws {
            while true {
                let deadline = wall.nextDeadline.flatMap { d in time.map { d < $0 } ?? true ? d : nil }
                let snapshot = pendingSnapshots.first.flatMap { s in time.map { s < $0 } ?? true ? s : nil }
                if let snapshot, deadline.map({ snapshot < $0 }) ?? true {
                    pendingSnapshots.removeFirst()
                    wall.advance(to: snapshot)
                    try drain()
                    try onSnapshot(snapshot)
                } else if let deadline {
                    wall.advance(to: deadline)
                    try drain()
                } else {
                    return
                }
            }
        }

        // An input recording's clock lines: the live loop moved the wall's clock on there.
        try reader.run(advancingClock: { time in
            try runDeadlines(before: time)
            wall.advance(to: time)
            try drain()
        }) { item in
            switch item {
            case let .touchFrame(frame):
                try runDeadlines(before: frame.time)
                for (device, time) in removed { wall.engine.deviceRemoved(device, at: time) }
                removed.removeAll()
                wall.send(frame)
                try drain()
            case let .touchpadGesture(gesture):
                try runDeadlines(before: gesture.time)
                wall.engine.send(gesture)
                try drain()
            case let .deviceRemoved(device, time):
                // Takes effect if input follows; at the very end the end-of-input rule applies.
                removed.append((device, time ?? wall.engine.now))
            case let .pointer(event):
                try runDeadlines(before: event.time)
                wall.engine.send(event)
                try drain()
            case let .pen(event):
                try runDeadlines(before: event.time)
                wall.engine.send(event)
                try drain()
            case let .modifiers(time, _, _):
                try runDeadlines(before: time)
                wall.engine.send(item)
            case .deviceAdded, .eventsDropped, .note:
                break
            }
        }
        try runDeadlines(before: nil)
        wall.finish()
        try drain()
    }
}
