import Foundation
import Testing
@testable import GestureKit
import GestureTestSupport

/// Runs one case and checks the invariants; returns the first violation (nil: none) and the
/// engine's log (every trace event and view delivery, as text).
func runCase(_ c: GestureCase) -> (violation: String?, log: [String]) {
    let built = c.build()
    let engine = built.engine
    var log: [String] = []
    var violation: String?
    func violate(_ text: String) { if violation == nil { violation = "\(formatTime(engine.now)): \(text)" } }

    // Which recognizers began or recognized with each touch.
    var claimedBy: [TouchID: [GestureRecognizer]] = [:]
    // The same, over every touch a recognizer tracked, however long ago it lifted.
    var claimedEver: [TouchID: [GestureRecognizer]] = [:]
    // A recognizer in a final state, with the touches of its sequence seen so far.
    var finalSequences: [ObjectIdentifier: (recognizer: GestureRecognizer, touches: Set<TouchID>)] = [:]
    // Recognizers that are disabled or removed by an action are reset at once, by rule.
    var withdrawn = Set<ObjectIdentifier>()
    for (i, spec) in c.recognizers.enumerated() {
        switch spec.reentry {
        case .disableSelf, .removeSelf, .failingWork: withdrawn.insert(ObjectIdentifier(built.recognizers[i]))
        case .removeFirst: withdrawn.insert(ObjectIdentifier(built.recognizers[0]))
        default: break
        }
    }
    /// No recognizer leaves a final state while a touch of its sequence is down (touches that
    /// joined it while it was final included).
    func checkFinalStates() {
        let down = Set(engine.storage.records.filter { !$0.lifted }.map(\.touch.id))
        for (key, entry) in finalSequences {
            let r = entry.recognizer
            if r.state.isFinal {
                finalSequences[key]?.touches.formUnion(engine.trackedTouches(of: r))
            } else {
                finalSequences[key] = nil
                guard !withdrawn.contains(key) else { continue }
                let stillDown = entry.touches.intersection(down)
                if !stillDown.isEmpty {
                    violate("\(r.name) left its final state while touch \(stillDown.map(\.rawValue).sorted()) of its sequence is down")
                }
            }
        }
    }
    engine.traceHandler = { event in
        log.append(event.description)
        guard case let .transition(t) = event else {
            checkFinalStates()
            return
        }
        if t.to.isFinal {
            let key = ObjectIdentifier(t.recognizer)
            finalSequences[key] = (t.recognizer, Set(engine.sequenceTouches(of: t.recognizer)))
        }
        checkFinalStates()
        let r = t.recognizer
        // A recognizer never mixes touch types (requiresExclusiveTouchType, on by default).
        let types = Set(engine.trackedTouches(of: r).compactMap { id in engine.storage.records.first { $0.touch.id == id }?.touch.type })
        if types.count > 1 { violate("\(r.name) tracks touches of types \(types.map(\.rawValue).sorted()) at once") }
        // A recognizer never leaves possible (other than failing) while one it requires to
        // fail is possible and involved, or has begun.
        if t.from == .possible && t.to != .failed {
            for b in r.failureRequirements where b.engine === engine {
                if b.state.isActive || (b.state == .possible && engine.isInvolved(b)) {
                    violate("\(r.name) went \(t.from) → \(t.to) while \(b.name), which it requires to fail, is \(b.state)\(b.state == .possible ? " and involved" : "")")
                }
            }
        }
        // Two exclusive recognizers never both begin or recognize on the same touches (those
        // still down, or lifting in this step: a touch long gone is no longer shared).
        if t.from == .possible && (t.to == .began || t.to == .ended) {
            let recorded = engine.recordedTouchIDs
            let touches = engine.trackedTouches(of: r).filter(recorded.contains)
            for o in built.recognizers where o !== r && o.state.isActive && !r.isSimultaneous(with: o)
                && engine.trackedTouches(of: o).contains(where: touches.contains) {
                violate("\(r.name) went \(t.from) → \(t.to) while \(o.name) is \(o.state) on a shared touch, and they are exclusive")
            }
            for id in touches {
                for o in claimedBy[id, default: []] where o !== r && !r.isSimultaneous(with: o) {
                    violate("\(r.name) \(t.to) with touch \(id.rawValue), which \(o.name) already began or recognized with, and they are exclusive")
                }
                claimedBy[id, default: []].append(r)
            }
            // Exclusive recognizers never both recognize for one touch, whether or not the
            // engine still keeps a record of it (a lifted touch is still theirs).
            for id in engine.sequenceTouches(of: r) {
                for o in claimedEver[id, default: []] where o !== r && !r.isSimultaneous(with: o) {
                    violate("\(r.name) \(t.to) with touch \(id.rawValue), which \(o.name) began or recognized with earlier (the touch has lifted since, maybe), and they are exclusive")
                }
                claimedEver[id, default: []].append(r)
            }
        }
    }
    // Deliveries: began, moved*, then exactly one ended or cancelled; nothing after; one view.
    enum Seen { case began, finished }
    var seen: [TouchID: (view: View, state: Seen)] = [:]
    for view in built.views {
        view.onTouches = { view, phase, touches in
            for t in touches {
                let before = seen[t.id]
                if let before, before.view !== view {
                    violate("touch \(t.id.rawValue) delivered to \(view.debugName) after \(before.view.debugName)")
                }
                switch (before?.state, phase) {
                case (nil, .began): seen[t.id] = (view, .began)
                case (nil, _): violate("\(view.debugName) got \(phase.callbackName) for touch \(t.id.rawValue) before touchesBegan")
                case (.began, .began): violate("\(view.debugName) got touchesBegan twice for touch \(t.id.rawValue)")
                case (.began, .moved): break
                case (.began, _): seen[t.id] = (view, .finished)
                case (.finished, _): violate("\(view.debugName) got \(phase.callbackName) for touch \(t.id.rawValue) after it ended")
                }
            }
        }
    }
    for event in c.timedEvents {
        engine.send(event)
        checkFinalStates()
    }
    engine.finish()
    checkFinalStates()
    // After all touches end and timers run out, every recognizer is back in possible.
    for r in built.recognizers + built.added() where r.state != .possible || engine.hasPendingTransition(r) {
        violate("after finish(), \(r.name) is \(r.state)\(engine.hasPendingTransition(r) ? " with a transition pending" : "")")
    }
    if let d = engine.nextDeadline { violate("after finish(), a deadline is pending at \(formatTime(d))") }
    for (id, s) in seen.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where s.state == .began {
        violate("touch \(id.rawValue) began in \(s.view.debugName) but never ended or was cancelled there")
    }
    return (violation, log)
}

/// Also checks that a second run gives the same log, word for word.
func checkCase(_ c: GestureCase) -> String? {
    let first = runCase(c)
    if let v = first.violation { return v }
    let second = runCase(c)
    if first.log != second.log {
        let i = zip(first.log, second.log).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(first.log.count, second.log.count)
        return "two runs differ at line \(i): \(i < first.log.count ? first.log[i] : "(end)") / \(i < second.log.count ? second.log[i] : "(end)")"
    }
    return nil
}

/// Random scenes and touches (GestureCase), 10,000 cases per run in four parallel batches.
/// The seed is printed; `GESTUREKIT_SEED=<seed>` reruns the same cases,
/// `GESTUREKIT_CASE_SEED=<seed>` runs one failing case, `GESTUREKIT_CASES=<n>` sets the count; `GESTUREKIT_VERBOSE=1` prints the
/// shrunk case's engine log.
@Suite("Invariants under random input")
struct InvariantTests {
    static let environment = ProcessInfo.processInfo.environment
    static let baseSeed: UInt64 = environment["GESTUREKIT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
    static let totalCases = environment["GESTUREKIT_CASES"].flatMap { Int($0) } ?? 10_000
    static let batches = 4

    @Test("recognizers settle, requirements wait, exclusivity holds, final states last until their sequence ends, deliveries pair up, runs repeat",
          arguments: 0..<batches)
    func invariants(batch: Int) {
        let seeds: [UInt64]
        if let one = Self.environment["GESTUREKIT_CASE_SEED"].flatMap({ UInt64($0) }) {
            seeds = batch == 0 ? [one] : []
        } else {
            let per = (Self.totalCases + Self.batches - 1) / Self.batches
            let range = (batch * per)..<min((batch + 1) * per, Self.totalCases)
            seeds = range.map { SeededRandom.caseSeed(base: Self.baseSeed, index: $0) }
            print("invariants batch \(batch): \(range.count) cases, GESTUREKIT_SEED=\(Self.baseSeed)")
        }
        for seed in seeds {
            let c = GestureCase.generate(seed: seed)
            guard let violation = checkCase(c) else { continue }
            let (small, tries) = GestureCase.shrink(c) { checkCase($0) != nil }
            let report = """
            invariant violated: \(violation)
            GESTUREKIT_CASE_SEED=\(seed) (run GESTUREKIT_SEED=\(Self.baseSeed)); shrunk in \(tries) tries from size \(c.size) to \(small.size):
            \(small)
            shrunk case: \(checkCase(small) ?? "?")
            """
            print(report)
            if Self.environment["GESTUREKIT_VERBOSE"] != nil {
                print("log of the shrunk case:\n" + runCase(small).log.joined(separator: "\n"))
            }
            Issue.record(Comment(rawValue: report))
            return
        }
    }

    /// Cases the random generator seldom reaches, run through the same checks: the checks
    /// must find nothing here, and each case breaks its invariant if the engine goes back to
    /// its old ways (checked by hand by undoing each rule in the engine).
    @Test("directed cases: a cell's and its parent's single taps never both recognize; a failed tap stays failed while its sequence lasts")
    func directedCases() {
        // Two single taps (each waiting for its double tap) on a cell and its parent, with
        // delaysTouchesEnded false: the touch's record is gone when they decide.
        let taps = GestureCase(
            views: [.init(frame: Rect(x: 0, y: 0, width: 1000, height: 1000), parent: nil),
                    .init(frame: Rect(x: 0, y: 0, width: 300, height: 300), parent: 0)],
            recognizers: [.init(kind: .tap, view: 1, parameters: ["taps": 2], delaysEnded: false),
                          .init(kind: .tap, view: 1, delaysEnded: false, requires: [0]),
                          .init(kind: .tap, view: 0, parameters: ["taps": 2], delaysEnded: false),
                          .init(kind: .tap, view: 0, delaysEnded: false, requires: [2])],
            simultaneous: [],
            frames: [.init(dt: 0, changes: [.init(finger: 0, phase: .began, x: 100, y: 100)]),
                     .init(dt: 0.05, changes: [.init(finger: 0, phase: .ended, x: 100, y: 100)])])
        #expect(checkCase(taps) == nil, "\(checkCase(taps) ?? "")")
        // A one-finger tap fails when a second finger lands; the second finger's own tap
        // must not bring it back while the first is down.
        let fingers = GestureCase(
            views: [.init(frame: Rect(x: 0, y: 0, width: 1000, height: 1000), parent: nil)],
            recognizers: [.init(kind: .tap, view: 0)],
            simultaneous: [],
            frames: [.init(dt: 0, changes: [.init(finger: 0, phase: .began, x: 500, y: 500)]),
                     .init(dt: 0.6, changes: [.init(finger: 1, phase: .began, x: 600, y: 500)]),
                     .init(dt: 0.05, changes: [.init(finger: 1, phase: .ended, x: 600, y: 500)]),
                     .init(dt: 0.3, changes: [.init(finger: 0, phase: .ended, x: 500, y: 500)])])
        #expect(checkCase(fingers) == nil, "\(checkCase(fingers) ?? "")")
    }

    @Test("the generator is reproducible from a seed, and the shrinker reaches a minimal case")
    func generatorAndShrinker() {
        let a = GestureCase.generate(seed: 42), b = GestureCase.generate(seed: 42)
        #expect(a.description == b.description)
        #expect(GestureCase.generate(seed: 43).description != a.description)
        // A planted failure: "some frame has a cancel". The shrinker keeps only what it needs.
        var seed: UInt64 = 1
        var c = GestureCase.generate(seed: seed)
        while !c.frames.contains(where: { $0.changes.contains { $0.phase == .cancelled } }) {
            seed += 1
            c = GestureCase.generate(seed: seed)
        }
        let (small, _) = GestureCase.shrink(c) { $0.frames.contains { $0.changes.contains { $0.phase == .cancelled } } }
        #expect(small.frames.count == 1 && small.frames[0].changes.count == 1, "\(small)")
        #expect(small.recognizers.count == 1 && small.views.count == 1, "\(small)")
    }
}
