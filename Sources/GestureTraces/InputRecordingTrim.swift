import GestureKit
import GestureRecording

/// Cuts a recording down to a time range and some of its devices (`gesturekit trim`), so a
/// bug report holds the moment of the bug and nothing else (docs/RECORDING.md, "Trimming and
/// minimizing").
///
/// **The rule:** the trimmed recording keeps every line of the chosen devices timed from `from`
/// to `to` (both included) and their clock lines there; it starts with the arrivals of the
/// chosen devices present at `from`, and leaves out every contact already down at `from` (a
/// touch, a pen's tip, a pointer's buttons, a touchpad gesture under way) until it lifts, so no
/// line of it refers to a beginning that is not there. Times are kept as they are.
public struct InputRecordingTrim {
    /// The first time kept; nil: from the start.
    public var from: Instant?
    /// The last time kept; nil: to the end.
    public var to: Instant?
    /// The devices kept; nil: all.
    public var devices: Set<InputDeviceID>?

    public init(from: Instant? = nil, to: Instant? = nil, devices: Set<InputDeviceID>? = nil) {
        self.from = from
        self.to = to
        self.devices = devices
    }

    /// What a trim kept.
    public struct Summary: Hashable, Sendable {
        /// Events read, and written (the arrivals of the devices present at `from` among them).
        public var read = 0
        public var written = 0
        /// Events of contacts down at the start, left out.
        public var leftOut = 0
    }

    /// Trims the input recording `reader` reads (checked whole first) into `writer`, which it
    /// closes. Throws the reader's error for a bad recording.
    @discardableResult
    public func run(_ reader: TraceReader, into writer: InputRecordingWriter) throws -> Summary {
        guard reader.format == .inputRecording else {
            throw TraceError(.unsupported, file: reader.path,
                             "trim takes a GestureKit input recording (docs/RECORDING.md): make one with gesturekit replay \(reader.path) --record FILE")
        }
        try reader.run(advancingClock: { _ in }) { _ in }
        var state = State(trim: self)
        var summary = Summary()
        try reader.run(advancingClock: { time in
            state.clock(time, writer)
        }) { event in
            summary.read += 1
            if let kept = state.event(event, writer) {
                writer.record(kept)
                summary.written += 1
            }
        }
        state.start(writer)
        summary.written += state.arrivalsWritten
        summary.leftOut = state.leftOutEvents
        writer.close()
        return summary
    }

    /// The trim's progress through the recording.
    private struct State {
        let trim: InputRecordingTrim
        /// Whether `from` has been reached (the devices present then written).
        var started = false
        var ended = false
        var present: [InputDeviceInfo] = []
        /// What was down at `from`, by device: touches by id, a pen, pointer buttons, gestures by kind.
        var touches: Set<Key> = []
        var pens: Set<InputDeviceID> = []
        var pointers: [InputDeviceID: Set<Int>] = [:]
        var gestures: Set<GestureKey> = []
        var leftOutEvents = 0
        /// The arrivals written when `from` was reached.
        var arrivalsWritten = 0
        /// What is down now (followed before `from`, to know what is down at it).
        var touchesDown: Set<Key> = []
        var pensDown: Set<InputDeviceID> = []
        var buttonsDown: [InputDeviceID: Set<Int>] = [:]
        var gesturesUnderWay: Set<GestureKey> = []

        struct Key: Hashable { var device: InputDeviceID; var id: Int }
        struct GestureKey: Hashable { var device: InputDeviceID; var kind: TouchpadGestureEvent.Kind }

        init(trim: InputRecordingTrim) { self.trim = trim }

        func chosen(_ device: InputDeviceID) -> Bool { trim.devices?.contains(device) ?? true }

        /// Writes the devices present, once `from` is reached; what is down then is left out.
        mutating func start(_ writer: InputRecordingWriter) {
            guard !started else { return }
            started = true
            for info in present where chosen(info.id) {
                writer.record(.deviceAdded(info))
                arrivalsWritten += 1
            }
            touches = touchesDown
            pens = pensDown
            pointers = buttonsDown.filter { !$0.value.isEmpty }
            gestures = gesturesUnderWay
        }

        mutating func clock(_ time: Instant, _ writer: InputRecordingWriter) {
            if let from = trim.from, time < from { return }
            if let to = trim.to, time > to { ended = true; return }
            start(writer)
            if !ended { writer.recordClock(time) }
        }

        /// The event as written, or nil.
        mutating func event(_ event: InputEvent, _ writer: InputRecordingWriter) -> InputEvent? {
            if let time = event.time {
                if let to = trim.to, time > to { ended = true }
                if let from = trim.from, time < from {
                    follow(event)
                    return nil
                }
            } else if !started {
                follow(event)
                return nil
            }
            start(writer)
            guard !ended, chosen(ContactCounter.device(of: event)) else { return nil }
            return leavingOut(event)
        }

        /// Before `from`: which devices are there and what is down.
        mutating func follow(_ event: InputEvent) {
            switch event {
            case let .deviceAdded(info):
                present.removeAll { $0.id == info.id }
                present.append(info)
            case let .deviceRemoved(device, _):
                present.removeAll { $0.id == device }
                touchesDown = touchesDown.filter { $0.device != device }
                pensDown.remove(device)
                buttonsDown[device] = nil
                gesturesUnderWay = gesturesUnderWay.filter { $0.device != device }
            case let .touchFrame(frame):
                for c in frame.changes {
                    let key = Key(device: frame.device, id: c.sourceID)
                    switch c.phase {
                    case .began: touchesDown.insert(key)
                    case .ended, .cancelled: touchesDown.remove(key)
                    case .moved: break
                    }
                }
            case let .pen(p):
                if p.phase == .down { pensDown.insert(p.device) }
                if p.phase == .up || p.phase == .out { pensDown.remove(p.device) }
            case let .pointer(p):
                if p.kind == .button, ButtonMask(evdevCode: p.button) != nil {
                    if p.pressed { buttonsDown[p.device, default: []].insert(p.button) } else { buttonsDown[p.device]?.remove(p.button) }
                }
                if p.kind == .leave { buttonsDown[p.device] = nil }
            case let .touchpadGesture(g):
                let key = GestureKey(device: g.device, kind: g.kind)
                switch g.phase {
                case .begin: gesturesUnderWay.insert(key)
                case .end, .cancel: gesturesUnderWay.remove(key)
                case .update: break
                }
            case .modifiers, .eventsDropped, .note:
                break
            }
        }

        /// From `from` on: the event without what belongs to contacts down at `from`.
        mutating func leavingOut(_ event: InputEvent) -> InputEvent? {
            switch event {
            case var .touchFrame(frame):
                guard !touches.isEmpty else { return event }
                let before = frame.changes.count
                frame.changes = frame.changes.filter { c in
                    let key = Key(device: frame.device, id: c.sourceID)
                    guard touches.contains(key) else { return true }
                    if c.phase == .began {
                        touches.remove(key)   // begun again: a new touch, kept
                        return true
                    }
                    if c.phase == .ended || c.phase == .cancelled { touches.remove(key) }
                    return false
                }
                if frame.changes.count < before { leftOutEvents += 1 }
                return frame.changes.isEmpty && before > 0 ? nil : .touchFrame(frame)
            case let .pen(p):
                guard pens.contains(p.device) else { return event }
                if p.phase == .up || p.phase == .out { pens.remove(p.device) }
                leftOutEvents += 1
                return nil
            case let .pointer(p):
                guard var held = pointers[p.device] else { return event }
                if p.kind == .leave {
                    pointers[p.device] = nil
                } else if p.kind == .button, !p.pressed, held.contains(p.button) {
                    held.remove(p.button)
                    pointers[p.device] = held.isEmpty ? nil : held
                    leftOutEvents += 1
                    return nil
                }
                return event
            case let .touchpadGesture(g):
                let key = GestureKey(device: g.device, kind: g.kind)
                guard gestures.contains(key) else { return event }
                if g.phase == .end || g.phase == .cancel || g.phase == .begin { gestures.remove(key) }
                if g.phase == .begin { return event }
                leftOutEvents += 1
                return nil
            case let .deviceRemoved(device, _):
                touches = touches.filter { $0.device != device }
                pens.remove(device)
                pointers[device] = nil
                gestures = gestures.filter { $0.device != device }
                return event
            case .deviceAdded, .modifiers, .eventsDropped, .note:
                return event
            }
        }
    }
}
