import GestureFormat
import GestureInput
import GestureKit
import GestureLibinput
import GestureReplay

#if canImport(Glibc)
import Glibc
#endif

/// A live session watched for what only a long run shows (`gesturekit soak`): it passes every
/// event and deadline to a `LiveSession` and measures, on CLOCK_MONOTONIC, how long each
/// action took from the event that caused it (an input event's kernel timestamp, a
/// compositor's through Wayland, or the deadline it was due at), by kind of device; checks
/// that no recognizer is left stuck; and samples the process's resident memory.
///
/// Rules:
/// - A sequence is a touchscreen's touch sequence (its first finger down to its last up); on
///   a touchpad or a mouse, a click (the first button pressed), a touchpad gesture (pinch,
///   swipe, hold) or a scroll (a continuous one up to its stop; a wheel's detents up to a
///   pause of `GestureDefaults.wheelScrollEndPause`). Motion alone is none.
/// - Stuck: when a sequence begins with the scene at rest (no device in the middle of one,
///   and no input for `Summary.restPause` but the pointer's motion or its leaving the window),
///   every recognizer but the hover ones (which follow the pointer, not sequences) is in
///   `possible`; at the end, with every device gone, every one is.
/// - Held: no device stays in the middle of a sequence for `Summary.longestSequence` (a touch
///   down, a button held, a gesture or scroll under way): input that began and never ended.
public final class SoakMonitor: LiveInputClient {
    /// What one kind of device did.
    public struct KindFigures: Sendable {
        public var devicesAdded = 0
        public var devicesRemoved = 0
        /// Sequences begun, and how many of them began with the scene at rest (checked).
        public var sequences = 0
        public var checked = 0
        /// Input events (touch frames, pointer events, touchpad gesture events).
        public var events = 0
        /// Actions caused by its events.
        public var actions = 0
        /// Microseconds from an input event's kernel timestamp to an action it caused.
        public var inputLatencies: [Int64] = []
        /// Microseconds from the moment the loop began handing out the batch of events an
        /// input event came in (libinput had read it) to the action it caused: GestureKit's own
        /// share of the latency.
        public var batchLatencies: [Int64] = []
        /// Microseconds between consecutive events of one device less than `Summary.burstGap`
        /// apart: the recording's own frame interval.
        public var eventIntervals: [Int64] = []
    }

    /// What the run saw; printed by `gesturekit soak` and checked against its limits.
    public struct Summary: Sendable {
        public var path: Path
        public var byKind: [InputDeviceKind: KindFigures] = [:]
        /// Every action (recognizer transition to began, changed, ended or cancelled), whatever caused it.
        public var actions = 0
        /// Microseconds from a deadline (a long press's duration, a double tap's interval) to
        /// the action it caused.
        public var deadlineLatencies: [Int64] = []
        /// "12.3 s: tap in state began" for every recognizer found stuck.
        public var stuck: [String] = []
        /// "40.1 s: the touchscreen's touches 3 down since 12.0 s, never ended" for every
        /// sequence that outlived `longestSequence`.
        public var held: [String] = []
        /// Through a compositor, touches held that long and nothing else: touches the
        /// compositor never ended. sway 1.7 (wlroots 0.15) sends neither `up` nor `cancel` for
        /// the touches of a touchscreen unplugged mid-touch while the seat keeps another
        /// (wlroots issue 1997); the client cannot know; the seat cancels such a touch when its
        /// id begins again (WaylandConnection's rule). Counted apart, and checked by `gesturekit soak`
        /// against the touchscreens it unplugged mid-gesture.
        public var lostByCompositor: [String] = []
        /// (seconds since the first event, resident bytes).
        public var residentMemory: [(seconds: Double, bytes: Int)] = []
        /// What else went wrong, in the user's words (the compositor went away).
        public var faults: [String] = []

        public init(path: Path = .libinput) { self.path = path }
    }

    /// Where the input comes from: it names the timestamps and batches in the report.
    public enum Path: Sendable {
        /// Devices read with libinput: kernel timestamps (microseconds), one device a device.
        case libinput
        /// A Wayland compositor's seat: its timestamps (whole milliseconds, libinput's kernel
        /// ones truncated on sway), and one touch and one pointer device for all the seat's
        /// devices (a touchpad's gestures and a mouse's clicks both come from the pointer).
        case compositor
    }

    public let session: LiveSession
    /// The loop's time zero on CLOCK_MONOTONIC (`LiveInput.origin`, `WaylandInput.origin`):
    /// maps the session's clock to CLOCK_MONOTONIC. Until it is set, no latency is measured.
    package var origin: () -> Instant? = { nil }
    public private(set) var summary: Summary

    /// How often resident memory is sampled (at the next sequence after each period).
    package static let memorySamplePeriod = Duration.seconds(1)

    private enum Cause { case none, event(Instant, InputDeviceKind?), deadline(Instant) }
    private var cause = Cause.none
    private var kinds: [InputDeviceID: InputDeviceKind] = [:]
    private var touches: [InputDeviceID: Set<Int>] = [:]
    private var buttons: [InputDeviceID: Set<Int>] = [:]
    private var gestures: Set<InputDeviceID> = []
    private var scrolling: Set<InputDeviceID> = []
    private var lastWheel: [InputDeviceID: Instant] = [:]
    private var lastEvent: [InputDeviceID: Instant] = [:]
    private var lastInput: Instant?
    private var lastSample: Instant?
    private var busySince: [InputDeviceID: Instant] = [:]
    private var heldReported: Set<InputDeviceID> = []
    private var batchStart: Instant?

    public init(scene: Scene, path: Path = .libinput) throws {
        summary = Summary(path: path)
        var actionHook: ((ReplayRecord) -> Void)?
        session = try LiveSession(scene: scene) { record in actionHook?(record) }
        actionHook = { [unowned self] record in recorded(record) }
    }

    /// Whether `device` is in the middle of a sequence at `time`.
    private func busy(_ device: InputDeviceID, at time: Instant) -> Bool {
        !(touches[device] ?? []).isEmpty || !(buttons[device] ?? []).isEmpty || gestures.contains(device)
            || scrolling.contains(device)
            || lastWheel[device].map { time < $0 + GestureDefaults.wheelScrollEndPause } == true
    }

    public func handle(_ event: InputEvent) {
        if batchStart == nil { batchStart = MonotonicClock.now() }
        let device: InputDeviceID
        let time: Instant
        var begins = false
        switch event {
        case let .touchFrame(frame):
            (device, time) = (frame.device, frame.time)
            begins = (touches[device] ?? []).isEmpty && frame.changes.contains { $0.phase == .began }
        case let .pointer(p):
            (device, time) = (p.device, p.time)
            switch p.kind {
            case .button: begins = p.pressed && !busy(device, at: time)
            case .scroll: begins = !busy(device, at: time) && !p.scrollStop
            default: break
            }
        case let .touchpadGesture(g):
            (device, time) = (g.device, g.time)
            begins = g.phase == .begin && !busy(device, at: time)
        case let .deviceAdded(info):
            if let kind = info.kind {
                kinds[info.id] = kind
                summary.byKind[kind, default: KindFigures()].devicesAdded += 1
            }
            session.handle(event)
            return
        case let .deviceRemoved(id, _):
            if let kind = kinds[id] { summary.byKind[kind, default: KindFigures()].devicesRemoved += 1 }
            touches[id] = nil
            buttons[id] = nil
            gestures.remove(id)
            scrolling.remove(id)
            lastWheel[id] = nil
            lastEvent[id] = nil
            busySince[id] = nil
            heldReported.remove(id)
            session.handle(event)
            return
        default:
            session.handle(event)
            return
        }
        let kind = kinds[device]
        if let kind {
            summary.byKind[kind, default: KindFigures()].events += 1
            if let previous = lastEvent[device], time - previous < Summary.burstGap {
                summary.byKind[kind]!.eventIntervals.append((time.nanoseconds - previous.nanoseconds) / 1000)
            }
        }
        lastEvent[device] = time
        if begins {
            let atRest = kinds.keys.allSatisfy { !busy($0, at: time) }
                && (lastInput.map { time - $0 >= Summary.restPause } ?? true)
            if let kind {
                summary.byKind[kind]!.sequences += 1
                if atRest { summary.byKind[kind]!.checked += 1 }
            }
            if atRest { checkSettled(at: time, hoverToo: false) }
            sampleMemory(at: time)
        }
        // Motion is no sequence; nor is the pointer leaving the window (sway hides the cursor
        // when a touch begins: the window gets a leave just before the touch's first frame).
        if case let .pointer(p) = event, p.kind == .motion || p.kind == .leave {} else { lastInput = time }
        cause = .event(time, kind)
        session.handle(event)
        cause = .none
        // What the event leaves in progress.
        switch event {
        case let .touchFrame(frame):
            for change in frame.changes {
                switch change.phase {
                case .began: touches[device, default: []].insert(change.sourceID)
                case .ended, .cancelled: touches[device]?.remove(change.sourceID)
                default: break
                }
            }
        case let .pointer(p):
            switch p.kind {
            case .button:
                if p.pressed { buttons[device, default: []].insert(p.button) } else { buttons[device]?.remove(p.button) }
            case .scroll:
                if p.scrollType.contains(.continuous) {
                    if p.scrollStop { scrolling.remove(device) } else { scrolling.insert(device) }
                } else {
                    lastWheel[device] = time
                }
            default: break
            }
        case let .touchpadGesture(g):
            if g.phase == .begin { gestures.insert(device) }
            if g.phase == .end || g.phase == .cancel { gestures.remove(device) }
        default: break
        }
        checkHeld(device, at: time)
    }

    /// A device in the middle of one sequence for longer than `Summary.longestSequence` is
    /// held: what began never ended (a touch never lifted, a button never released, a
    /// gesture or a scroll never stopped). Said once for each time it happens.
    private func checkHeld(_ device: InputDeviceID, at time: Instant) {
        let inProgress = !(touches[device] ?? []).isEmpty || !(buttons[device] ?? []).isEmpty
            || gestures.contains(device) || scrolling.contains(device)
        guard inProgress else {
            busySince[device] = nil
            heldReported.remove(device)
            return
        }
        guard let since = busySince[device] else {
            busySince[device] = time
            return
        }
        guard time - since > Summary.longestSequence, !heldReported.contains(device) else { return }
        heldReported.insert(device)
        var what: [String] = []
        if let t = touches[device], !t.isEmpty { what.append("touches \(t.sorted().map(String.init).joined(separator: ", ")) down") }
        if let b = buttons[device], !b.isEmpty { what.append("buttons \(b.sorted().map { "0x" + String($0, radix: 16) }.joined(separator: ", ")) held") }
        if gestures.contains(device) { what.append("a touchpad gesture under way") }
        if scrolling.contains(device) { what.append("a scroll under way") }
        let name = kinds[device].map { summary.label($0) } ?? "device"
        let touchesOnly = (buttons[device] ?? []).isEmpty && !gestures.contains(device) && !scrolling.contains(device)
        if summary.path == .compositor && touchesOnly {
            summary.lostByCompositor.append("\(DecimalText.fixed(time.seconds, digits: 3)) s: the \(name)'s \(what.joined(separator: " and ")) since "
                                            + "\(DecimalText.fixed(since.seconds, digits: 3)) s")
            return
        }
        summary.held.append("\(DecimalText.fixed(time.seconds, digits: 3)) s: the \(name)'s \(what.joined(separator: " and ")) since "
                            + "\(DecimalText.fixed(since.seconds, digits: 3)) s, never ended")
    }

    public var nextDeadline: Instant? { session.nextDeadline }

    public func advance(to now: Instant) {
        cause = session.nextDeadline.map { .deadline($0) } ?? .none
        session.advance(to: now)
        cause = .none
    }

    public func batchHandled(by run: LiveInputRun) { batchStart = nil }

    public func finish() {
        session.finish()
        checkSettled(at: session.engine.now, hoverToo: true)
    }

    /// Every recognizer of the scene is in `possible` (the hover ones left out unless
    /// `hoverToo`); the ones that are not are named.
    private func checkSettled(at time: Instant, hoverToo: Bool) {
        for (id, recognizer) in session.replay.live.recognizers where recognizer.state != .possible {
            if !hoverToo && recognizer is HoverGestureRecognizer { continue }
            summary.stuck.append("\(DecimalText.fixed(time.seconds, digits: 3)) s: \(id) in state \(recognizer.state)")
        }
    }

    private func sampleMemory(at time: Instant) {
        if let lastSample, time < lastSample + Self.memorySamplePeriod { return }
        lastSample = time
        if let bytes = Self.residentBytes() { summary.residentMemory.append((time.seconds, bytes)) }
    }

    /// This process's resident set (/proc/self/statm's second field, in pages), in bytes.
    package static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let fields = String(decoding: buffer[..<n], as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// A transition that runs a recognizer's actions: the latency from its cause.
    private func recorded(_ record: ReplayRecord) {
        guard case let .state(s) = record, [.began, .changed, .ended, .cancelled].contains(s.to) else { return }
        summary.actions += 1
        let origin = origin()
        let now = MonotonicClock.now().nanoseconds
        switch cause {
        case let .event(time, kind):
            guard let kind else { return }
            summary.byKind[kind, default: KindFigures()].actions += 1
            guard let origin else { return }
            summary.byKind[kind]!.inputLatencies.append((now - (time.nanoseconds + origin.nanoseconds)) / 1000)
            if let batchStart { summary.byKind[kind]!.batchLatencies.append((now - batchStart.nanoseconds) / 1000) }
        case let .deadline(time):
            guard let origin else { return }
            summary.deadlineLatencies.append((now - (time.nanoseconds + origin.nanoseconds)) / 1000)
        case .none: break
        }
    }
}

extension SoakMonitor.Summary {
    /// The most the resident set may grow after the warm-up (the first fifth of the run).
    package static let residentGrowthLimit = 1 << 20     // bytes
    package static let warmUpFraction = 0.2
    /// No input for this long before a sequence begins (with no device in the middle of one):
    /// the scene is at rest, the recognizers are checked. Above a wheel's end pause.
    package static let restPause = Duration.milliseconds(220)
    /// Events of one device closer than this are of one gesture (their interval is the
    /// recording's frame interval).
    package static let burstGap = Duration.milliseconds(100)
    /// No sequence of the recordings lasts this long (the longest, a mouse's, is under 10 s):
    /// a device in the middle of one for longer holds input that never ended.
    package static let longestSequence = Duration.seconds(30)

    /// The kinds of device in the order they are reported, and their names in the report.
    package static let reportedKinds: [InputDeviceKind] = [.touchscreen, .touchpad, .pointer, .pen]
    public static func label(_ kind: InputDeviceKind) -> String { kind == .pointer ? "mouse" : kind.rawValue }
    /// A kind's name in this run's report: through a compositor the pointer is every
    /// touchpad's and mouse's.
    public func label(_ kind: InputDeviceKind) -> String {
        path == .compositor && kind == .pointer ? "pointer" : Self.label(kind)
    }

    /// Bytes the resident set grew from the first sample after the warm-up to the largest
    /// after it; nil with fewer than two samples after the warm-up.
    public var residentGrowth: Int? {
        guard let last = residentMemory.last?.seconds else { return nil }
        let after = residentMemory.filter { $0.seconds >= last * Self.warmUpFraction }
        guard after.count >= 2, let first = after.first?.bytes, let peak = after.map(\.bytes).max() else { return nil }
        return peak - first
    }

    /// What the run broke, in the user's words; empty when it passed.
    public var failures: [String] {
        var out = faults
        if byKind.isEmpty { out.append("no device reached the scene") }
        for kind in Self.reportedKinds {
            guard let k = byKind[kind], k.devicesAdded > 0 else { continue }
            if k.sequences == 0 { out.append("no \(label(kind)) sequence reached the scene") }
            if k.actions == 0 { out.append("no recognizer acted on a \(label(kind))") }
        }
        if !stuck.isEmpty {
            out.append("\(stuck.count) recognizer(s) not back in possible when a sequence began or at the end: "
                       + stuck.prefix(5).joined(separator: "; "))
        }
        if !held.isEmpty {
            out.append("\(held.count) sequence(s) never ended (input left down): " + held.prefix(5).joined(separator: "; "))
        }
        if let growth = residentGrowth, growth >= Self.residentGrowthLimit {
            out.append("resident memory grew \(DecimalText.fixed(Double(growth) / 1024, digits: 0)) KiB after the warm-up (limit \(Self.residentGrowthLimit / 1024) KiB)")
        }
        if residentGrowth == nil { out.append("too few memory samples after the warm-up to tell whether memory is flat") }
        return out
    }

    /// The value at fraction `p` of the sorted `values` (nearest rank).
    static func percentile(_ values: [Int64], _ p: Double) -> Int64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }

    static func milliseconds(_ us: Int64?) -> String {
        us.map { DecimalText.fixed(Double($0) / 1000, digits: 2) + " ms" } ?? "none"
    }

    /// The result lines `gesturekit soak` prints: per kind of device, "<kind>: devices added
    /// N, removed M; ..." then its latencies; then the deadlines, memory and what was stuck.
    public var report: [String] {
        func spread(_ values: [Int64]) -> String {
            "p50 \(Self.milliseconds(Self.percentile(values, 0.5))), p99 \(Self.milliseconds(Self.percentile(values, 0.99))), "
                + "max \(Self.milliseconds(values.max())) (\(values.count) actions)"
        }
        var lines: [String] = []
        for kind in Self.reportedKinds {
            guard let k = byKind[kind] else { continue }
            let name = label(kind)
            let what = kind == .touchscreen ? "touch sequences" : "sequences (clicks, gestures, scrolls)"
            let devices = path == .libinput ? "devices" : "seat devices"
            lines.append("\(name): \(devices) added \(k.devicesAdded), removed \(k.devicesRemoved); \(k.sequences) \(what), "
                         + "\(k.checked) of them begun at rest; \(k.events) events; actions fired \(k.actions)")
            switch path {
            case .libinput:
                lines.append("\(name): latency, kernel timestamp to its action: " + spread(k.inputLatencies))
                lines.append("\(name): latency, libinput's batch handed out to its action: " + spread(k.batchLatencies))
            case .compositor:
                lines.append("\(name): latency, compositor timestamp (whole ms) to its action: " + spread(k.inputLatencies))
                lines.append("\(name): latency, the compositor's batch handed out to its action: " + spread(k.batchLatencies))
            }
            lines.append("\(name): event interval of the recordings (median): \(Self.milliseconds(Self.percentile(k.eventIntervals, 0.5)))")
        }
        lines.append("actions fired \(actions) (recognizer transitions to began, changed, ended or cancelled)")
        lines.append("latency, deadline to its action: " + spread(deadlineLatencies))
        if let first = residentMemory.first, let last = residentMemory.last {
            let growth = residentGrowth.map { "\(DecimalText.fixed(Double($0) / 1024, digits: 0)) KiB" } ?? "unknown"
            lines.append("resident memory \(first.bytes / 1024) KiB at the first sequence, \(last.bytes / 1024) KiB at the last; "
                         + "growth after the warm-up \(growth) (\(residentMemory.count) samples)")
        }
        lines.append("recognizers stuck: \(stuck.count)")
        lines.append("sequences never ended: \(held.count)")
        if path == .compositor {
            lines.append("touches the compositor never ended: \(lostByCompositor.count)"
                         + (lostByCompositor.isEmpty ? "" : " (" + lostByCompositor.prefix(5).joined(separator: "; ") + ")"))
        }
        return lines
    }
}
