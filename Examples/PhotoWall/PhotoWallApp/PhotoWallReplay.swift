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
    public static func run(path: String, into wall: PhotoWall, mapping: TouchMapping = .identity,
                           onEvent: (PhotoWallEvent) throws -> Void) throws {
        let reader = try TraceReader(path: path, screen: wall.screen, mapping: mapping)
        try reader.run { _ in }
        var removed: [(InputDeviceID, Instant)] = []

        func drain() throws {
            for event in wall.takeEvents() { try onEvent(event) }
        }
        func runDeadlines(before time: Instant?) throws {
            while let deadline = wall.nextDeadline, time.map({ deadline < $0 }) ?? true {
                wall.advance(to: deadline)
                try drain()
            }
        }

        try reader.run { item in
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
                removed.append((device, time))
            case let .pointer(event):
                try runDeadlines(before: event.time)
                wall.engine.send(event)
                try drain()
            case .deviceAdded, .eventsDropped, .note:
                break
            }
        }
        try runDeadlines(before: nil)
        wall.finish()
        try drain()
    }
}
