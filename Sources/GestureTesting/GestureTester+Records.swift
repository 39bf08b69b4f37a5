import GestureKit

/// What the recognizers and views did, as values to assert on, and as an account a person
/// reads: "tap: possible → failed at 0.083333 s: moved 11.111 pt > allowable 10 pt". The
/// `require…` checks fail with that account, at the line that called them (see
/// `GestureTester+Reporting.swift`), so a failing test says why a gesture did not recognize
/// and where it was asked.
///
/// The account's rules: one line a transition or wait, in order; a run of `changed → changed`
/// of one recognizer is one line ("pan: changed ×23 from 0.108333 to 0.291667 s"). In a
/// failure's account (and `account(margins: true)`), a tap's or long press's line that ends
/// or fails it states its margins, measured from the touches the tester sent that landed on
/// its view ("held 80 of 500 ms allowed; moved 3 of 10 pt allowed; second tap 140 of 300 ms
/// allowed"); where the tester did not send them (an engine fed by the app), it states none.
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

    /// Forgets every record so far (the clock keeps its time). The `require…` checks and the
    /// account read every record since the tester was made or since the last
    /// `clearRecords()`: clear between the parts of a test that check different gestures.
    public func clearRecords() {
        records.removeAll()
        touchLog.removeAll()
    }

    /// One touch change the tester sent, for the margins.
    struct LoggedChange {
        var time: Instant
        var device: InputDeviceID
        var sourceID: Int
        var phase: TouchPhase
        var location: Point
    }

    /// Notes the touch changes of `event`, which the tester sends (or a replay through it).
    package func noteInput(_ event: InputEvent) {
        guard isRecording, case let .touchFrame(frame) = event else { return }
        for c in frame.changes {
            touchLog.append(LoggedChange(time: frame.time, device: frame.device, sourceID: c.sourceID, phase: c.phase, location: c.location))
        }
    }

    /// Whether `recognizer` recognized since the records began: it began (a continuous
    /// gesture) or ended from possible (a discrete one).
    public func recognized(_ recognizer: GestureRecognizer) -> Bool {
        transitions(of: recognizer).contains { $0.to == .began || ($0.to == .ended && $0.from == .possible) }
    }

    /// Every recognizer's transitions and waits, one line each, in order, runs of `changed`
    /// collapsed: "doubleTap: possible → ended at 0.300000 s: 2 taps of 1 touch completed"
    /// (times as the replay prints them). The same input gives the same account, whoever
    /// sent it.
    public var account: String { account(margins: false) }

    /// The account, with each tap's and long press's margins where `margins` (as a failure
    /// states them): "… 2 taps of 1 touch completed (held 80 of 500 ms allowed; moved 0 of
    /// 10 pt allowed; second tap 140 of 300 ms allowed)".
    public func account(margins: Bool) -> String {
        lines(margins: margins) { _ in true }.joined(separator: "\n")
    }

    /// The account of one recognizer (with its margins where `margins`).
    public func account(of recognizer: GestureRecognizer, margins: Bool = false) -> String {
        lines(margins: margins) { $0 === recognizer }.joined(separator: "\n")
    }

    private func lines(margins withMargins: Bool, _ include: (GestureRecognizer) -> Bool) -> [String] {
        var out: [String] = []
        // The open run of `changed` of each recognizer: where its line is, how many, from when.
        var runs: [ObjectIdentifier: (line: Int, count: Int, first: Instant)] = [:]
        for (index, event) in records.enumerated() {
            switch event {
            case let .transition(t) where include(t.recognizer):
                let id = ObjectIdentifier(t.recognizer)
                if t.from == .changed && t.to == .changed, let run = runs[id] {
                    runs[id] = (run.line, run.count + 1, run.first)
                    out[run.line] = "\(t.recognizer.name): changed ×\(run.count + 1) from \(formatTime(run.first)) to \(formatTime(t.time)) s"
                    continue
                }
                if t.from == .changed && t.to == .changed {
                    runs[id] = (out.count, 1, t.time)
                } else {
                    runs[id] = nil
                }
                var line = "\(t.recognizer.name): \(t.from.rawValue) → \(t.to.rawValue) at \(formatTime(t.time)) s: \(t.reason)"
                if withMargins, let margins = margins(of: t, before: index) { line += " (\(margins))" }
                out.append(line)
            case let .waiting(time, r, reason) where include(r):
                runs[ObjectIdentifier(r)] = nil
                out.append("\(r.name): possible at \(formatTime(time)) s, \(reason)")
            default:
                continue
            }
        }
        return out
    }

    /// One touch as the recognizer's view received it.
    struct ReceivedTouch {
        var down: Instant
        var up: Instant?
        var start: Point
        var travel: Double
        /// Whether the tester sent it (its travel and lift are then known).
        var known = true
    }

    /// The touches that landed on the recognizer's view or its subviews since its last reset
    /// (its last final transition) up to record `end`, in the order they landed, each with
    /// its lift and travel up to `time` from the input the tester sent (`touchLog`): a view's
    /// own deliveries of lifts may be delayed or cancelled by its recognizers.
    func receivedTouches(for recognizer: GestureRecognizer, before end: Int, at time: Instant) -> [ReceivedTouch] {
        guard let view = recognizer.view else { return [] }
        var begin = 0
        for i in stride(from: end - 1, through: 0, by: -1) {
            if case let .transition(t) = records[i], t.recognizer === recognizer,
               [.ended, .failed, .cancelled].contains(t.to) {
                begin = i + 1
                break
            }
        }
        var seen: [TouchID: Int] = [:]
        var result: [ReceivedTouch] = []
        var logged: [Bool] = []
        for event in records[begin...end] {
            guard case let .delivery(d) = event, d.view === view || d.view.isDescendant(of: view) else { continue }
            for touch in d.touches {
                if let i = seen[touch.id] {
                    // Input the tester did not send (an app's own engine fed directly): what
                    // the view received.
                    guard !logged[i], d.time <= time else { continue }
                    result[i].travel = Swift.max(result[i].travel, touch.initialLocation.distance(to: touch.location))
                    if d.phase == .ended && result[i].up == nil { result[i].up = d.time }
                    continue
                }
                seen[touch.id] = result.count
                var received = ReceivedTouch(down: touch.beganAt, up: nil, start: touch.initialLocation, travel: 0)
                var found = false
                for change in touchLog where change.device == touch.device && change.sourceID == touch.sourceID
                    && change.time >= touch.beganAt && change.time <= time {
                    found = true
                    received.travel = Swift.max(received.travel, touch.initialLocation.distance(to: change.location))
                    if change.phase == .ended || change.phase == .cancelled {
                        received.up = change.time
                        break
                    }
                }
                received.known = found
                result.append(received)
                logged.append(found)
            }
        }
        return result
    }

    /// The margins of a tap's or a long press's deciding transition: how its touches' hold,
    /// travel and pauses compare with its limits.
    func margins(of t: GestureTraceEvent.Transition, before index: Int) -> String? {
        guard t.to == .ended || t.to == .failed || t.to == .began else { return nil }
        // A failure whose reason is already a measure against its limit says it all.
        switch t.reason {
        case .movedTooFar, .heldTooLong, .tapIntervalExpired, .tapTooFarFromFirst, .liftedBeforeDuration, .tooManyTouches, .tooFewTouches:
            return nil
        default:
            break
        }
        func ms(_ d: Duration) -> String { fmt(d.inSeconds * 1000) }
        if let tap = t.recognizer as? TapGestureRecognizer, t.to != .began {
            let touches = receivedTouches(for: tap, before: index, at: t.time)
            guard !touches.isEmpty, touches.allSatisfy(\.known) else { return nil }
            // Taps: groups of touches down together; a new tap starts when all have lifted.
            var taps: [(down: Instant, up: Instant?)] = []
            var openUntil: Instant?
            for touch in touches {
                if let last = taps.last, let until = openUntil, touch.down <= until || last.up == nil {
                    taps[taps.count - 1].up = [last.up, touch.up].compactMap { $0 }.max()
                    openUntil = taps[taps.count - 1].up
                } else {
                    taps.append((touch.down, touch.up))
                    openUntil = touch.up
                }
            }
            var parts: [String] = []
            let held = taps.compactMap { tap in tap.up.map { $0 - tap.down } }
            if let longest = held.max() {
                parts.append("held \(ms(longest)) of \(ms(tap.maximumTapDuration)) ms allowed")
            }
            let travel = touches.map(\.travel).max() ?? 0
            parts.append("moved \(fmt(travel)) of \(fmt(tap.allowableMovement)) pt allowed")
            for (k, (a, b)) in zip(taps, taps.dropFirst()).enumerated() where tap.numberOfTapsRequired > 1 {
                guard let up = a.up else { continue }
                parts.append("\(ordinal(k + 2)) tap \(ms(b.down - up)) of \(ms(tap.maximumTapInterval)) ms allowed")
            }
            return parts.joined(separator: "; ")
        }
        if let press = t.recognizer as? LongPressGestureRecognizer {
            let touches = receivedTouches(for: press, before: index, at: t.time)
            guard let first = touches.first, touches.allSatisfy(\.known) else { return nil }
            let held = (touches.compactMap(\.up).max() ?? t.time) - first.down
            let travel = touches.map(\.travel).max() ?? 0
            return "held \(ms(held)) of \(ms(press.minimumPressDuration)) ms needed; moved \(fmt(travel)) of \(fmt(press.allowableMovement)) pt allowed"
        }
        return nil
    }

    private func ordinal(_ n: Int) -> String {
        ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth"].indices.contains(n)
            ? ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth"][n] : "\(n)th"
    }

    // MARK: Checks

    /// What a check found: nil where it holds, otherwise the failure with the account. The
    /// `require…` checks report it at your line; this gives it as a value, to look at.
    public func failure(of check: Check) -> GestureTestError? {
        switch check {
        case let .recognized(recognizer):
            guard !recognized(recognizer) else { return nil }
            return .recognition(expected: "expected \(recognizer.name) to recognize; it did not", account: accountOrNothing)
        case let .notRecognized(recognizer):
            guard recognized(recognizer) else { return nil }
            return .recognition(expected: "expected \(recognizer.name) not to recognize; it did", account: accountOrNothing)
        case let .states(recognizer, expected):
            let got = states(of: recognizer)
            guard got != expected else { return nil }
            return .recognition(
                expected: "expected \(recognizer.name) to go through \(describe(expected)); it went through \(got.isEmpty ? "nothing" : describe(got))",
                account: accountOrNothing)
        }
    }

    /// A check of what a recognizer did since the records began (`clearRecords()`).
    public enum Check {
        /// It recognized: began (continuous) or ended from possible (discrete).
        case recognized(GestureRecognizer)
        /// It did not recognize.
        case notRecognized(GestureRecognizer)
        /// It went through exactly these states.
        case states(GestureRecognizer, [GestureRecognizer.State])
    }

    /// Fails the test at the calling line, with the account of every recognizer and the
    /// timeline's picture, unless `recognizer` recognized since the records began.
    public func requireRecognized(_ recognizer: GestureRecognizer, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                                  line: UInt = #line, column: UInt = #column) throws {
        try require(.recognized(recognizer), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Fails the test at the calling line, with the account, if `recognizer` recognized.
    public func requireNotRecognized(_ recognizer: GestureRecognizer, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                                     line: UInt = #line, column: UInt = #column) throws {
        try require(.notRecognized(recognizer), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Fails the test at the calling line, with the account, unless `recognizer` went
    /// through exactly `expected` since the records began (every record since the tester was
    /// made or since the last `clearRecords()`).
    public func requireStates(_ recognizer: GestureRecognizer, _ expected: [GestureRecognizer.State], fileID: StaticString = #fileID,
                              filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) throws {
        try require(.states(recognizer, expected), fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Fails the test at the calling line unless `check` holds: in a Swift Testing test an
    /// issue at that line (as `#require` records one), with the timeline attached; in an
    /// XCTest test a failure at that file and line (as `XCTUnwrap` records one); elsewhere
    /// the thrown ``GestureTestError``. Every failure says where the timeline's SVG was
    /// written.
    public func require(_ check: Check, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                        line: UInt = #line, column: UInt = #column) throws {
        guard let failure = failure(of: check) else { return }
        try report(failure, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func describe(_ states: [GestureRecognizer.State]) -> String {
        states.map(\.rawValue).joined(separator: " → ")
    }

    var accountOrNothing: String {
        let text = account(margins: true)
        return text.isEmpty ? "(no recognizer changed state: did the touches reach the view the recognizer is on?)" : text
    }
}
