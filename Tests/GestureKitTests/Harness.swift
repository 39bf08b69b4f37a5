@testable import GestureKit

/// Drives an engine with scripted touches on virtual time and records what it does as
/// short lines: "0.300 double: possible→ended" and "0.300 root: touchesCancelled [1,2]".
final class Harness {
    let engine = GestureEngine()
    let root: View
    private(set) var log: [String] = []
    private(set) var reasons: [String: [String]] = [:]
    var transitions: [GestureTraceEvent.Transition] = []
    /// The reasons of every input the engine ignored.
    private(set) var ignored: [String] = []

    init(screen: Size = Size(width: 1000, height: 1000)) {
        root = View(id: "root", frame: Rect(origin: .zero, size: screen))
        engine.addRoot(root)
        engine.traceHandler = { [unowned self] event in
            switch event {
            case let .transition(t):
                log.append("\(ms(t.time)) \(t.recognizer.name): \(t.from.rawValue)→\(t.to.rawValue)")
                reasons[t.recognizer.name, default: []].append(t.reason.description)
                transitions.append(t)
            case let .delivery(d):
                log.append("\(ms(d.time)) \(d.view.debugName): \(d.phase.callbackName) [\(d.touches.map { String($0.id.rawValue) }.joined(separator: ","))]")
            case let .inputIgnored(_, reason):
                ignored.append(reason)
            case .waiting, .pen:
                break
            case let .programmingError(_, message):
                ignored.append("programming error: \(message)")
            }
        }
    }

    @discardableResult
    func add<R: GestureRecognizer>(_ r: R, to view: View? = nil) -> R {
        (view ?? root).addGestureRecognizer(r)
        return r
    }

    /// Lines of the log that mention `who` (a recognizer or view id followed by ':').
    func lines(_ who: String) -> [String] {
        log.filter { $0.split(separator: " ").dropFirst().first == "\(who):" }
    }

    func clear() { log.removeAll() }

    // MARK: Scripted input (time in seconds, points on the screen)

    func frame(_ t: Double, _ changes: [(Int, TouchPhase, Double, Double)], device: Int = 0) {
        engine.send(TouchFrame(time: Instant(seconds: t), device: InputDeviceID(device),
                               changes: changes.map { TouchChange(sourceID: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3)) }))
    }

    func down(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .began, x, y)]) }
    func move(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .moved, x, y)]) }
    func up(_ id: Int, _ x: Double, _ y: Double, at t: Double) { frame(t, [(id, .ended, x, y)]) }

    /// A one-finger tap at (x, y) from `t` to `t + duration`.
    func tap(_ id: Int = 0, _ x: Double = 500, _ y: Double = 500, at t: Double, duration: Double = 0.05) {
        down(id, x, y, at: t)
        up(id, x, y, at: t + duration)
    }

    // MARK: The pointer

    func pointer(_ x: Double, _ y: Double, at t: Double, device: Int = 1) {
        engine.send(PointerEvent.motion(to: Point(x: x, y: y), at: Instant(seconds: t), device: InputDeviceID(device)))
    }

    func button(_ pressed: Bool, _ x: Double, _ y: Double, at t: Double, device: Int = 1) {
        engine.send(PointerEvent.button(pressed, at: Point(x: x, y: y), time: Instant(seconds: t), device: InputDeviceID(device)))
    }

    func click(_ x: Double, _ y: Double, at t: Double, duration: Double = 0.07, device: Int = 1) {
        button(true, x, y, at: t, device: device)
        button(false, x, y, at: t + duration, device: device)
    }

    func scroll(_ dx: Double, _ dy: Double, _ type: ScrollTypes, at t: Double, x: Double = 500, y: Double = 500,
                stop: Bool = false, device: Int = 1) {
        engine.send(PointerEvent.scroll(Point(x: dx, y: dy), type, at: Point(x: x, y: y), time: Instant(seconds: t),
                                        device: InputDeviceID(device), stop: stop))
    }

    func advance(to t: Double) { engine.advance(to: Instant(seconds: t)) }

    /// Runs every timer and cancels what is still down, as the end of a replay does.
    func finish() { engine.finish() }
}

/// Milliseconds as "0.300".
func ms(_ t: Instant) -> String {
    let millis = (t.nanoseconds + 500_000) / 1_000_000
    let frac = String(millis % 1000)
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}
