import GestureKit
import GestureTesting

/// Scripted input on virtual time for the engine of a `GestureTester`, and what the engine did
/// as short lines: "0.300 double: possible→ended" and "0.300 root: touchesCancelled [1,2]".
///
/// Raw input with explicit times (`frame`, `down`, `move`, `up`, `cancel`, `tap`, `pointer`,
/// `button`, `click`, `scroll`, `send`) goes through `tester.send` as it is: nothing is
/// announced or restamped, so a test of the engine's rules for bad input can send times out of
/// order; the tester's clock follows. The lines, `reasons`, `transitions` and `ignored` are
/// made from the tester's trace events (`tester.records` holds them all).
package final class Harness {
    /// The tester that owns the engine and records every trace event.
    package let tester: GestureTester
    /// The tester's engine.
    package var engine: GestureEngine { tester.engine }
    /// The root view: "root", the size of the screen, or the view given to `init(root:)`.
    package let root: View
    /// "0.300 double: possible→ended" and "0.300 root: touchesCancelled [1,2]", in order.
    package private(set) var log: [String] = []
    /// Each recognizer's transitions' reasons, by its name, in order.
    package private(set) var reasons: [String: [String]] = [:]
    /// Every transition, in order.
    package var transitions: [GestureTraceEvent.Transition] = []
    /// The reasons of every input the engine ignored, and its programming errors.
    package private(set) var ignored: [String] = []
    /// The drag sessions' steps, as traced.
    package private(set) var drags: [DragTraceEvent] = []

    /// An engine with one root view "root" the size of `screen`.
    package convenience init(screen: Size = Size(width: 1000, height: 1000)) {
        self.init(root: View(id: "root", frame: Rect(origin: .zero, size: screen)))
    }

    /// An engine with `root` as its one root view.
    package init(root: View) {
        self.root = root
        tester = GestureTester(root: root)
        // The tester records each event, then calls this; the engine had no handler of its own
        // for the tester to chain, so each event is noted once.
        tester.traceHandler = { [unowned self] event in note(event) }
    }

    private func note(_ event: GestureTraceEvent) {
        switch event {
        case let .transition(t):
            log.append("\(ms(t.time)) \(t.recognizer.name): \(t.from.rawValue)→\(t.to.rawValue)")
            reasons[t.recognizer.name, default: []].append(t.reason.description)
            transitions.append(t)
        case let .delivery(d):
            log.append("\(ms(d.time)) \(d.view.debugName): \(d.phase.callbackName) [\(d.touches.map { String($0.id.rawValue) }.joined(separator: ","))]")
        case let .inputIgnored(_, reason):
            ignored.append(reason)
        case let .contextMenu(t):
            log.append("\(ms(t.time)) \(t.interaction.name): menu \(t.from.rawValue)→\(t.to.rawValue)")
            reasons["menu " + t.interaction.name, default: []].append(t.reason.description)
        case .waiting, .pen:
            break
        case let .drag(d):
            log.append("\(ms(d.time)) drag\(d.session): \(d.phase.rawValue) \(d.view?.debugName ?? "-") \(d.operation.rawValue)")
            drags.append(d)
        case let .programmingError(_, message):
            ignored.append("programming error: \(message)")
        }
    }

    @discardableResult
    package func add<R: GestureRecognizer>(_ r: R, to view: View? = nil) -> R {
        (view ?? root).addGestureRecognizer(r)
        return r
    }

    /// Lines of the log that mention `who` (a recognizer or view id followed by ':').
    package func lines(_ who: String) -> [String] {
        log.filter { $0.split(separator: " ").dropFirst().first == "\(who):" }
    }

    /// Forgets the log so far.
    package func clear() { log.removeAll() }

    /// The engine's time.
    package var now: Instant { engine.now }

    // MARK: Scripted input (time in seconds, points on the screen)

    /// Sends `event` as it is, through the tester.
    package func send(_ event: InputEvent) { tester.send(event) }

    package func frame(_ t: Double, _ changes: [(Int, TouchPhase, Double, Double)], device: Int = 0) {
        send(.touchFrame(TouchFrame(time: Instant(seconds: t), device: InputDeviceID(device),
                                    changes: changes.map { TouchChange(sourceID: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3)) })))
    }

    package func down(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .began, x, y)]) }
    package func move(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .moved, x, y)]) }
    package func up(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .ended, x, y)]) }
    package func cancel(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .cancelled, x, y)]) }

    /// A one-finger tap of touch `id` at (x, y) from `t` to `t + duration`.
    package func tap(_ id: Int = 0, _ x: Double = 500, _ y: Double = 500, at t: Double, duration: Double = 0.05) {
        down(id, x, y, at: t)
        up(id, x, y, at: t + duration)
    }

    // MARK: The pointer

    package func pointer(_ x: Double, _ y: Double, at t: Double, device: Int = 1) {
        send(.pointer(.motion(to: Point(x: x, y: y), at: Instant(seconds: t), device: InputDeviceID(device))))
    }

    package func button(_ pressed: Bool, _ x: Double, _ y: Double, at t: Double, device: Int = 1) {
        send(.pointer(.button(pressed, at: Point(x: x, y: y), time: Instant(seconds: t), device: InputDeviceID(device))))
    }

    package func click(_ x: Double, _ y: Double, at t: Double, duration: Double = 0.07, device: Int = 1) {
        button(true, x, y, at: t, device: device)
        button(false, x, y, at: t + duration, device: device)
    }

    package func scroll(_ dx: Double, _ dy: Double, _ type: ScrollTypes, at t: Double, x: Double = 500, y: Double = 500,
                       stop: Bool = false, device: Int = 1) {
        send(.pointer(.scroll(Point(x: dx, y: dy), type, at: Point(x: x, y: y), time: Instant(seconds: t),
                              device: InputDeviceID(device), stop: stop)))
    }

    /// Moves the engine's time to `t`, firing every deadline up to and including it.
    package func advance(to t: Double) { engine.advance(to: Instant(seconds: t)) }

    /// Runs every timer and cancels what is still down, as the end of a replay does.
    package func finish() { tester.endInput() }
}

/// Milliseconds as "0.300".
package func ms(_ t: Instant) -> String {
    let millis = (t.nanoseconds + 500_000) / 1_000_000
    let frac = String(millis % 1000)
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}
