import Testing
import GestureKit

/// A display link unpaused by a deadline (a long press's duration, a wheel's pause ending a
/// zoom that springs back) gets its frames on the way to the next input, each at its own time.
@Suite struct DisplayLinkStartedByDeadlineTests {
    @Test("a link a long press starts at its 0.5 s deadline fires at 0.6 and 0.7 s, before a touch at 0.75 s, not all at 0.75 s")
    func linkStartedByATimer() {
        let engine = GestureEngine()
        let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        engine.addRoot(root)
        var log: [String] = []
        let link = engine.addDisplayLink(frameRate: 10) { log.append("frame \($0.timestamp.seconds) at \(engine.now.seconds)") }
        let press = LongPressGestureRecognizer(name: "press")
        press.addTarget { r in
            if r.state == .began { log.append("press began at \(engine.now.seconds)"); link.isPaused = false }
        }
        root.addGestureRecognizer(press)
        root.onTouches = { _, phase, _ in log.append("touches \(phase.rawValue) at \(engine.now.seconds)") }
        engine.send(TouchFrame(time: .zero, device: InputDeviceID(0),
                               changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: 5, y: 5))]))
        engine.send(TouchFrame(time: Instant(seconds: 0.75), device: InputDeviceID(0),
                               changes: [TouchChange(sourceID: 2, phase: .began, location: Point(x: 50, y: 50))]))
        let after = Array(log.drop { !$0.hasPrefix("press began") }.filter { !$0.hasPrefix("touches cancelled") })
        #expect(after.prefix(3) == ["press began at 0.5", "frame 0.6 at 0.6", "frame 0.7 at 0.7"],
                "the frames after the deadline fire at their own times: \(log)")
    }
}
