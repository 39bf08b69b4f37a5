import GestureFormat
import GestureInput
import GestureKit
import GestureLibinput
import GestureReplay

#if canImport(Glibc)
import Glibc
#endif

/// A live session watched for what only a long run shows (`gesturekit soak`): it passes every
/// event and deadline to a `LiveSession` and measures, on CLOCK_MONOTONIC, how long each action
/// took from the event that caused it (a frame's kernel timestamp, or the deadline it was due
/// at); checks that every recognizer is back in `possible` whenever a new touch sequence
/// starts (none stuck); and samples the process's resident memory.
public final class SoakMonitor: LiveInputClient {
    /// What the run saw; printed by `gesturekit soak` and checked against its limits.
    public struct Summary: Sendable {
        public var frames = 0
        public var sequences = 0
        public var actions = 0
        public var devicesAdded = 0
        public var devicesRemoved = 0
        /// Microseconds from an input frame's kernel timestamp to an action it caused.
        public var inputLatencies: [Int64] = []
        /// Microseconds from the moment the loop began handing out the batch of events an
        /// input frame came in (libinput had read it) to the action it caused: GestureKit's own
        /// share of the latency.
        public var batchLatencies: [Int64] = []
        /// Microseconds from a deadline (a long press's duration, a double tap's interval) to
        /// the action it caused.
        public var deadlineLatencies: [Int64] = []
        /// The time between consecutive frames of one touch sequence, in microseconds.
        public var frameIntervals: [Int64] = []
        /// "12.3 s: tap in state began" for every recognizer found out of `possible` as a new
        /// touch sequence began.
        public var stuck: [String] = []
        /// (seconds since the first event, resident bytes).
        public var residentMemory: [(seconds: Double, bytes: Int)] = []
    }

    public let session: LiveSession
    /// The loop that feeds this monitor: its `origin` maps the session's clock to CLOCK_MONOTONIC.
    public weak var input: LiveInput?
    public private(set) var summary = Summary()

    /// How often resident memory is sampled (at the next frame after each period).
    public static let memorySamplePeriod = Duration.seconds(1)

    private enum Cause { case none, frame(Instant), deadline(Instant) }
    private var cause = Cause.none
    private var down: Set<Int64> = []   // (device << 32) | touch id
    private var lastFrame: [InputDeviceID: Instant] = [:]
    private var lastSample: Instant?
    private var batchStart: Instant?

    public init(scene: Scene) throws {
        var actionHook: ((ReplayRecord) -> Void)?
        session = try LiveSession(scene: scene) { record in actionHook?(record) }
        actionHook = { [unowned self] record in recorded(record) }
    }

    public func handle(_ event: InputEvent) {
        if batchStart == nil { batchStart = MonotonicClock.now() }
        switch event {
        case let .touchFrame(frame):
            summary.frames += 1
            let key = { (id: Int) in (Int64(frame.device.rawValue) << 32) | Int64(UInt32(truncatingIfNeeded: id)) }
            let startsSequence = down.isEmpty && frame.changes.contains { $0.phase == .began }
            if startsSequence {
                summary.sequences += 1
                checkSettled(at: frame.time)
                sampleMemory(at: frame.time)
                lastFrame[frame.device] = nil
            }
            if let previous = lastFrame[frame.device], !down.isEmpty {
                summary.frameIntervals.append((frame.time.nanoseconds - previous.nanoseconds) / 1000)
            }
            lastFrame[frame.device] = frame.time
            cause = .frame(frame.time)
            session.handle(event)
            cause = .none
            for change in frame.changes {
                switch change.phase {
                case .began: down.insert(key(change.sourceID))
                case .ended, .cancelled: down.remove(key(change.sourceID))
                default: break
                }
            }
        case .deviceAdded:
            summary.devicesAdded += 1
            session.handle(event)
        case let .deviceRemoved(id, _):
            summary.devicesRemoved += 1
            down = down.filter { $0 >> 32 != Int64(id.rawValue) }
            lastFrame[id] = nil
            session.handle(event)
        default:
            session.handle(event)
        }
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
        checkSettled(at: session.engine.now)
    }

    /// Every recognizer of the scene is in `possible` (a touch sequence ended, and the
    /// deadlines it left ran); the ones that are not are named.
    private func checkSettled(at time: Instant) {
        for (id, recognizer) in session.replay.live.recognizers where recognizer.state != .possible {
            summary.stuck.append("\(DecimalText.fixed(time.seconds, digits: 3)) s: \(id) in state \(recognizer.state)")
        }
    }

    private func sampleMemory(at time: Instant) {
        if let lastSample, time < lastSample + Self.memorySamplePeriod { return }
        lastSample = time
        if let bytes = Self.residentBytes() { summary.residentMemory.append((time.seconds, bytes)) }
    }

    /// This process's resident set (/proc/self/statm's second field, in pages), in bytes.
    public static func residentBytes() -> Int? {
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
        guard let origin = input?.origin else { return }
        let now = MonotonicClock.now().nanoseconds
        switch cause {
        case let .frame(time):
            summary.inputLatencies.append((now - (time.nanoseconds + origin.nanoseconds)) / 1000)
            if let batchStart { summary.batchLatencies.append((now - batchStart.nanoseconds) / 1000) }
        case let .deadline(time): summary.deadlineLatencies.append((now - (time.nanoseconds + origin.nanoseconds)) / 1000)
        case .none: break
        }
    }
}

extension SoakMonitor.Summary {
    /// The most the resident set may grow after the warm-up (the first fifth of the run).
    public static let residentGrowthLimit = 1 << 20     // bytes
    public static let warmUpFraction = 0.2

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
        var out: [String] = []
        if frames == 0 { out.append("no touch frame reached the scene") }
        if actions == 0 { out.append("no recognizer acted") }
        if !stuck.isEmpty {
            out.append("\(stuck.count) recognizer(s) not back in possible when a touch sequence began: "
                       + stuck.prefix(5).joined(separator: "; "))
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

    /// The result lines `gesturekit soak` prints.
    public var report: [String] {
        func spread(_ values: [Int64]) -> String {
            "p50 \(Self.milliseconds(Self.percentile(values, 0.5))), p99 \(Self.milliseconds(Self.percentile(values, 0.99))), "
                + "max \(Self.milliseconds(values.max())) (\(values.count) actions)"
        }
        var lines = [
            "touch frames \(frames) in \(sequences) touch sequences; devices added \(devicesAdded), removed \(devicesRemoved)",
            "actions fired \(actions) (recognizer transitions to began, changed, ended or cancelled)",
            "latency, input frame's kernel timestamp to its action: " + spread(inputLatencies),
            "latency, libinput's batch handed out to its action: " + spread(batchLatencies),
            "latency, deadline to its action: " + spread(deadlineLatencies),
            "frame interval of the recordings (median): \(Self.milliseconds(Self.percentile(frameIntervals, 0.5)))",
        ]
        if let first = residentMemory.first, let last = residentMemory.last {
            let growth = residentGrowth.map { "\(DecimalText.fixed(Double($0) / 1024, digits: 0)) KiB" } ?? "unknown"
            lines.append("resident memory \(first.bytes / 1024) KiB at the first touch, \(last.bytes / 1024) KiB at the last; "
                         + "growth after the warm-up \(growth) (\(residentMemory.count) samples)")
        }
        lines.append("recognizers stuck: \(stuck.count)")
        return lines
    }
}
