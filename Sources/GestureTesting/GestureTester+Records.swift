import GestureKit

/// What the recognizers and views did, as values to assert on, and as an account a person
/// reads: "tap: possible → failed at 0.083333 s: moved 11.111 pt > allowable 10 pt". The `require…` checks
/// throw with that account when they fail, so a failing test says why a gesture did not
/// recognize.
extension GestureTester {
    /// The state transitions of `recognizer`, with their reasons, in order.
    public func transitions(of recognizer: GestureRecognizer) -> [GestureTraceEvent.Transition] {
        records.compactMap {
            if case let .transition(t) = $0, t.recognizer === recognizer { return t }
            return nil
        }
    }

    /// The states `recognizer` went through, in order (`[.began, .changed, .ended]`).
    public func states(of recognizer: GestureRecognizer) -> [GestureRecognizer.State] {
        transitions(of: recognizer).map(\.to)
    }

    /// The touches delivered to `view` (its touchesBegan, Moved, Ended and Cancelled), in order.
    public func deliveries(to view: View) -> [GestureTraceEvent.Delivery] {
        records.compactMap {
            if case let .delivery(d) = $0, d.view === view { return d }
            return nil
        }
    }

    /// What the engine set aside as input that does not make sense, with its reasons.
    public var ignoredInput: [String] {
        records.compactMap {
            switch $0 {
            case let .inputIgnored(_, reason): reason
            case let .programmingError(_, message): "programming error: \(message)"
            default: nil
            }
        }
    }

    /// Forgets every record so far (the clock keeps its time).
    public func clearRecords() { records.removeAll() }

    /// Whether `recognizer` recognized since the records began: it began (a continuous
    /// gesture) or ended from possible (a discrete one).
    public func recognized(_ recognizer: GestureRecognizer) -> Bool {
        transitions(of: recognizer).contains { $0.to == .began || ($0.to == .ended && $0.from == .possible) }
    }

    /// Every recognizer's transitions and waits, one line each, in order:
    /// "doubleTap: possible → ended at 0.350000 s: 2 taps of 1 touch completed" (times as the replay prints them).
    public var account: String {
        lines { _ in true }.joined(separator: "\n")
    }

    /// The account of one recognizer.
    public func account(of recognizer: GestureRecognizer) -> String {
        lines { $0 === recognizer }.joined(separator: "\n")
    }

    private func lines(_ include: (GestureRecognizer) -> Bool) -> [String] {
        records.compactMap { event in
            switch event {
            case let .transition(t) where include(t.recognizer):
                "\(t.recognizer.name): \(t.from.rawValue) → \(t.to.rawValue) at \(formatTime(t.time)) s: \(t.reason)"
            case let .waiting(time, r, reason) where include(r):
                "\(r.name): possible at \(formatTime(time)) s, \(reason)"
            default:
                nil
            }
        }
    }

    /// Throws, with the account of every recognizer, unless `recognizer` recognized.
    public func requireRecognized(_ recognizer: GestureRecognizer) throws {
        guard recognized(recognizer) else {
            throw GestureTestError.recognition(expected: "expected \(recognizer.name) to recognize; it did not",
                                               account: accountOrNothing)
        }
    }

    /// Throws, with the account of every recognizer, if `recognizer` recognized.
    public func requireNotRecognized(_ recognizer: GestureRecognizer) throws {
        guard !recognized(recognizer) else {
            throw GestureTestError.recognition(expected: "expected \(recognizer.name) not to recognize; it did",
                                               account: accountOrNothing)
        }
    }

    /// Throws, with the account, unless `recognizer` went through exactly `states`.
    public func requireStates(_ recognizer: GestureRecognizer, _ expected: [GestureRecognizer.State]) throws {
        let got = states(of: recognizer)
        guard got == expected else {
            throw GestureTestError.recognition(
                expected: "expected \(recognizer.name) to go through \(expected.map(\.rawValue).joined(separator: " → ")); it went through \(got.isEmpty ? "nothing" : got.map(\.rawValue).joined(separator: " → "))",
                account: accountOrNothing)
        }
    }

    private var accountOrNothing: String {
        let text = account
        return text.isEmpty ? "(no recognizer changed state: did the touches reach the view the recognizer is on?)" : text
    }
}
