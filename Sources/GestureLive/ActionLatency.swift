import GestureFormat
import GestureInput
import GestureKit
import GestureReplay

/// `gesturekit listen --latency`: how long each recognizer action took from the input event
/// that caused it, by kind of input (touches, touchpad gestures, the pointer, pens, modifier
/// keys) and for the engine's deadlines.
///
/// It stands between a live loop and its client (a `LiveSession`), passing everything on, and
/// is told of each record the client's scene makes (`recorded`). An action is a transition to
/// began, changed, ended or cancelled made while an event (or a deadline) is being handled. Its
/// latency is CLOCK_MONOTONIC when the record is made minus the event's own time as the source
/// gives it: libinput's kernel timestamp (microseconds), or a Wayland compositor's (whole
/// milliseconds, truncated, so a latency through a compositor reads up to 1 ms long; sway's
/// are libinput's kernel timestamps, on CLOCK_MONOTONIC).
public final class ActionLatency: LiveInputClient {
    public enum Cause: String, CaseIterable, Sendable {
        case touch = "touch frame"
        case touchpad = "touchpad gesture"
        case pointer = "pointer event"
        case pen = "pen event"
        case keys = "modifier keys"
        case deadline = "deadline"
    }

    /// What the events go to.
    public var client: (any LiveInputClient)?
    private var cause: (Cause, Instant)?
    /// Each action: its cause, the cause's time on the client's clock, CLOCK_MONOTONIC at the action.
    private var samples: [(cause: Cause, time: Instant, at: Instant)] = []
    /// The client's clock's zero on CLOCK_MONOTONIC (the run's origin).
    private var origin: Instant?

    public init() {}

    public func handle(_ event: InputEvent) {
        let kind: Cause? = switch event {
        case .touchFrame: .touch
        case .touchpadGesture: .touchpad
        case .pointer: .pointer
        case .pen: .pen
        case .modifiers: .keys
        default: nil
        }
        if let kind, let time = event.time { cause = (kind, time) }
        client?.handle(event)
        cause = nil
    }

    public var nextDeadline: Instant? { client?.nextDeadline }

    public func advance(to now: Instant) {
        cause = client?.nextDeadline.map { (.deadline, $0) }
        client?.advance(to: now)
        cause = nil
    }

    public func batchHandled(by run: LiveInputRun) {
        if origin == nil { origin = run.origin }
        client?.batchHandled(by: run)
    }

    public func finish() { client?.finish() }

    /// A record of the client's scene: an action made while an event or deadline is handled is timed.
    public func recorded(_ record: ReplayRecord) {
        guard let cause, case let .state(s) = record, [.began, .changed, .ended, .cancelled].contains(s.to) else { return }
        samples.append((cause.0, cause.1, MonotonicClock.now()))
    }

    /// Microseconds from each cause to its actions, by kind of cause.
    public var latencies: [Cause: [Int64]] {
        guard let origin else { return [:] }
        var out: [Cause: [Int64]] = [:]
        for sample in samples {
            out[sample.cause, default: []].append((sample.at.nanoseconds - sample.time.nanoseconds - origin.nanoseconds) / 1000)
        }
        return out
    }

    /// One line for each kind of cause that made actions: "latency, pen event's timestamp to
    /// its action: p50 …, p99 …, max … (n actions)".
    public var report: [String] {
        let all = latencies
        guard !all.isEmpty else { return ["latency: no recognizer acted on an event"] }
        return Cause.allCases.compactMap { cause in
            guard let values = all[cause] else { return nil }
            let from = cause == .deadline ? "deadline" : "\(cause.rawValue)'s timestamp"
            return "latency, \(from) to its action: p50 \(SoakMonitor.Summary.milliseconds(SoakMonitor.Summary.percentile(values, 0.5))), "
                + "p99 \(SoakMonitor.Summary.milliseconds(SoakMonitor.Summary.percentile(values, 0.99))), "
                + "max \(SoakMonitor.Summary.milliseconds(values.max())) (\(values.count) actions)"
        }
    }
}
