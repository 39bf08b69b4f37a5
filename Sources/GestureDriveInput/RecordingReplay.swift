import GestureKit
import GestureTraces

/// A touchscreen recording (evemu, `libinput record` YAML, libinput debug-events, a GestureKit
/// input recording) made ready to play on a driven app's touchscreen, at its recorded timing.
/// The rule, stated once here:
///
/// - **As recorded**, when the session's touchscreen was made from the same recording (its
///   evdev description is the recording's touchscreen's, `--device-from FILE`): the
///   recording's own evdev events, every one, in their own units, slots and tracking ids.
/// - **Mapped** otherwise: the recording's touches, decoded by GestureTraces (protocol A and B,
///   single-touch), with each position scaled from the recording's axes onto the output's
///   points (axis minimum → 0, maximum → the output's width or height: the whole panel is the
///   whole output) and written by the session touchscreen's own encoder, at its resolution and
///   with its pressure, as the gestures are. Touches beyond the device's slots are dropped,
///   and the replay says so. A GestureKit input recording holds what an app received, in its
///   window's points: those are scaled from the recorded window (its header's size) onto the
///   output, and its clock starts at its first touch.
/// - Either way, only the recording's first touchscreen is played (its other devices are
///   named and left out), touches still down at the recording's end are lifted one report
///   later (and said so), and a recording without a touchscreen is refused, naming what it has.
package struct RecordedTouches {
    package enum Failure: Error, CustomStringConvertible, Equatable {
        case noTouchscreen(path: String, found: [String])
        case noTouches(path: String, device: String)

        package var description: String {
            switch self {
            case let .noTouchscreen(path, found):
                return "\(path): no touchscreen in this recording to replay (it has \(found.isEmpty ? "no devices" : found.joined(separator: ", ")))"
            case let .noTouches(path, device):
                return "\(path): the touchscreen \"\(device)\" never touches in this recording: nothing to replay"
            }
        }
    }

    package let path: String
    /// The recording's touchscreen, as it describes itself (nil for a debug-events trace).
    package let description: EvdevDeviceDescription?
    package let deviceName: String
    /// The touch frames in output points, times from the recording's first event.
    package let frames: [TouchFrame]
    /// The touchscreen's own evdev events (nil where the format has none: debug-events).
    package let events: [EvdevEvent]?
    /// What the decoder set aside or repaired, and the devices left out.
    package let notes: [String]

    /// Reads the recording at `path`, mapping its touchscreen's positions onto `output`
    /// (points). Throws `TraceError` (naming the file and line) for a malformed file, and
    /// `Failure` for one that has no touchscreen or no touches.
    package init(path: String, output: Size) throws {
        let reader = try TraceReader(path: path, screen: output)
        guard let device = reader.devices.first(where: { $0.kind == .touchscreen }) else {
            throw Failure.noTouchscreen(path: path, found: reader.devices.map { "\($0.kind?.rawValue ?? "pointer or keyboard") \"\($0.name)\"" })
        }
        var notes: [String] = []
        let others = reader.devices.filter { $0.id != device.id }
        if !others.isEmpty {
            notes.append("left out: \(others.map { "\($0.kind?.rawValue ?? "device") \"\($0.name)\"" }.joined(separator: ", ")) (only the touchscreen is replayed)")
        }
        var frames: [TouchFrame] = []
        try reader.run { item in
            switch item {
            case let .touchFrame(frame) where frame.device == device.id:
                frames.append(frame)
            case let .note(time, id, text) where id == device.id:
                notes.append("at \(Double(time.nanoseconds) / 1e9) s: \(text)")
            case let .eventsDropped(time, id) where id == device.id:
                notes.append("at \(Double(time.nanoseconds) / 1e9) s: the recording's kernel buffer overflowed (SYN_DROPPED)")
            default:
                break
            }
        }
        guard frames.contains(where: { !$0.changes.isEmpty }) else {
            throw Failure.noTouches(path: path, device: device.name)
        }
        if let header = reader.recordingHeader {
            frames = Self.fitted(frames, from: header.screen, onto: output)
            notes.append("an input recording of a \(Self.number(header.screen.width))×\(Self.number(header.screen.height)) point window, scaled onto the \(Self.number(output.width))×\(Self.number(output.height)) point output, its clock from its first touch")
        }
        var events: [EvdevEvent]?
        if reader.format == .evemu || reader.format == .libinputRecord {
            var raw: [EvdevEvent] = []
            try reader.forEachEvdevEvent(device: device.id) { raw.append($0) }
            events = raw
        }
        self.path = path
        self.description = device.description
        self.deviceName = device.name
        self.frames = frames
        self.events = events
        self.notes = notes
    }

    /// An input recording's touch frames moved onto the output: positions scaled from the
    /// recorded window's points, times from the first frame with a touch.
    static func fitted(_ frames: [TouchFrame], from window: Size, onto output: Size) -> [TouchFrame] {
        let sx = window.width > 0 ? output.width / window.width : 1
        let sy = window.height > 0 ? output.height / window.height : 1
        let start = frames.first(where: { !$0.changes.isEmpty })?.time ?? .zero
        return frames.compactMap { frame in
            guard frame.time >= start else { return nil }
            var moved = frame
            moved.time = Instant.zero + (frame.time - start)
            for i in moved.changes.indices {
                moved.changes[i].location = Point(x: frame.changes[i].location.x * sx, y: frame.changes[i].location.y * sy)
            }
            return moved
        }
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// Whether `device` is this recording's touchscreen (made from it): then it can carry the
    /// recording's events as they are.
    package func isRecorded(on device: VirtualDevice) -> Bool {
        guard let description, events != nil else { return false }
        return device.kind == .touchscreen && device.description == description
    }
}

/// What a replay played: how, from which device, how much. Its description is the line
/// `gesturekit drive` prints.
public struct ReplayReport: Hashable, Sendable, CustomStringConvertible {
    public enum Mode: Hashable, Sendable {
        /// The recording's own events, on the touchscreen made from it.
        case asRecorded
        /// The recording's touches, scaled onto the output's points and written by the
        /// session's touchscreen.
        case mapped
    }

    public var path: String
    public var mode: Mode
    /// The recording's touchscreen.
    public var recordedDevice: String
    /// The session's touchscreen.
    public var device: String
    /// Evdev frames (SYN_REPORTs) sent to the device.
    public var frames: Int
    /// Touches (finger down to up) in the recording.
    public var touches: Int
    /// The recording's length, first to last frame.
    public var seconds: Double
    /// Anything set aside, repaired, dropped or left out.
    public var notes: [String]

    public var description: String {
        let how = switch mode {
        case .asRecorded: "as recorded on \"\(device)\""
        case .mapped: "mapped from \"\(recordedDevice)\" onto \"\(device)\" (positions scaled from the recording's axes to the output's points)"
        }
        let length = (seconds * 1000).rounded() / 1000
        return "\(how): \(touches) touch\(touches == 1 ? "" : "es"), \(frames) frames, \(length) s"
            + notes.map { "; \($0)" }.joined()
    }
}

extension DeviceInputWriter {
    /// The evdev events that replay `recording` on this writer's touchscreen (times from the
    /// recording's first event), and what they are. The touchscreen encoder's state (its
    /// slots, its tracking ids) carries on from the gestures before and to those after.
    package func replay(_ recording: RecordedTouches) throws -> (events: [EvdevEvent], report: ReplayReport) {
        guard device.kind == .touchscreen else {
            throw Failure.wrongDevice(gesture: "touchscreen recording", device: device.kind, needs: "a touchscreen")
        }
        var notes = recording.notes
        var events: [EvdevEvent]
        let mode: ReplayReport.Mode
        if recording.isRecorded(on: device), let raw = recording.events {
            mode = .asRecorded
            events = Self.asRecorded(raw, device: device.description, notes: &notes)
            touchscreenSlotUnknown()
        } else {
            mode = .mapped
            events = []
            let droppedBefore = droppedTouches
            var down: [Int: (location: Point, time: Instant)] = [:]
            var last = Instant.zero
            for frame in recording.frames {
                events += encodeTouches(frame)
                for change in frame.changes {
                    switch change.phase {
                    case .began, .moved: down[change.sourceID] = (change.location, frame.time)
                    case .ended, .cancelled: down[change.sourceID] = nil
                    }
                }
                last = frame.time
            }
            if !down.isEmpty {
                let lift = last + Duration(seconds: 1 / Double(device.reportRate))
                events += encodeTouches(TouchFrame(time: lift, changes: down.keys.sorted().map {
                    TouchChange(sourceID: $0, phase: .ended, location: down[$0]!.location)
                }))
                notes.append("lifted \(down.count) finger\(down.count == 1 ? "" : "s") the recording left down")
            }
            let dropped = droppedTouches - droppedBefore
            if dropped > 0 {
                notes.append("\(dropped) touch\(dropped == 1 ? "" : "es") dropped: the recording has more fingers down at once than the device's \(device.slots) slots")
            }
        }
        let touches = recording.frames.reduce(0) { $0 + $1.changes.filter { $0.phase == .began }.count }
        let times = events.filter { $0.type == .syn && $0.code == .synReport }.map(\.time)
        let seconds = times.first.flatMap { first in times.last.map { ($0 - first).inSeconds } } ?? 0
        return (events, ReplayReport(path: recording.path, mode: mode, recordedDevice: recording.deviceName,
                                     device: device.description.name, frames: times.count, touches: touches,
                                     seconds: seconds, notes: notes))
    }

    /// The recording's events as they are, made to stand on their own: the slot the recording
    /// began in is selected first (the device may be left in another by what came before),
    /// and fingers the recording left down are lifted one report after its end.
    static func asRecorded(_ raw: [EvdevEvent], device d: EvdevDeviceDescription, notes: inout [String]) -> [EvdevEvent] {
        var events = raw
        // Events after the last SYN_REPORT are a frame the recording cut: they are dropped.
        if let end = events.lastIndex(where: { $0.type == .syn && $0.code == .synReport }) {
            if end + 1 < events.count { notes.append("\(events.count - end - 1) events after the last SYN_REPORT dropped (a cut frame)") }
            events.removeSubrange((end + 1)...)
        } else {
            events = []
        }
        guard let first = events.first else { return [] }
        if d.has(.abs, .absMTSlot),
           let mt = events.firstIndex(where: { $0.type == .abs && ($0.code == .absMTTrackingID || $0.code == .absMTPositionX || $0.code == .absMTPositionY) }),
           !events[..<mt].contains(where: { $0.type == .abs && $0.code == .absMTSlot }) {
            events.insert(EvdevEvent(time: first.time, type: .abs, code: .absMTSlot, value: d.absInfo[.absMTSlot]?.value ?? 0), at: 0)
        }
        // Which slots the recording leaves down.
        var slot = d.absInfo[.absMTSlot]?.value ?? 0
        var down: Set<Int32> = []
        var touching = false
        for e in events where e.type == .abs || e.type == .key {
            switch (e.type, e.code) {
            case (.abs, .absMTSlot): slot = e.value
            case (.abs, .absMTTrackingID): if e.value < 0 { down.remove(slot) } else { down.insert(slot) }
            case (.key, .btnTouch): touching = e.value != 0
            default: break
            }
        }
        if !down.isEmpty || touching {
            let t = events.last!.time + Duration(seconds: 1 / 60.0)
            for s in down.sorted() {
                events.append(EvdevEvent(time: t, type: .abs, code: .absMTSlot, value: s))
                events.append(EvdevEvent(time: t, type: .abs, code: .absMTTrackingID, value: -1))
            }
            if touching { events.append(EvdevEvent(time: t, type: .key, code: .btnTouch, value: 0)) }
            events.append(EvdevEvent(time: t, type: .syn, code: .synReport, value: 0))
            notes.append("lifted the finger\(down.count == 1 ? "" : "s") the recording left down")
        }
        return events
    }
}
