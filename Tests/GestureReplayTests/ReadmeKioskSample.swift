import GestureKit
import Testing

/// The sample of the article "Building a kiosk", word for word between the markers
/// (DocumentationTests checks the article against it); this test runs it.
@discardableResult
func readmeKioskSample(_ engine: GestureEngine, _ say: @escaping (String) -> Void) throws -> View {
    // readme:kiosk:begin
    let screen = View(id: "screen", frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
    engine.addRoot(screen)
    // The touchscreen is 597 mm wide: the edge margin is then 5 mm, not 20 pt.
    engine.pointsPerMillimetre[InputDeviceID(0)] = 1920 / 597

    let edgePan = ScreenEdgePanGestureRecognizer(edges: [.left, .right]) { edge in
        if edge.state == .began { say("open the menu") }
    }
    let pan = PanGestureRecognizer { pan in
        if pan.state == .began { say("scroll the page") }
    }
    // Edge touches go to the edge pan; a touch anywhere else fails it at touch-down, so the
    // plain pan is not kept waiting.
    pan.require(toFail: edgePan)
    screen.addGestureRecognizer(edgePan)
    screen.addGestureRecognizer(pan)
    // readme:kiosk:end
    return screen
}

@Suite("README kiosk sample")
struct ReadmeKioskSampleTests {
    @Test("a swipe in from the left edge opens the menu; one from the middle scrolls the page")
    func runs() throws {
        let engine = GestureEngine()
        var said: [String] = []
        try readmeKioskSample(engine) { said.append($0) }
        func swipe(from x: Double, to x2: Double, at t: Double) {
            engine.send(TouchFrame(time: Instant(seconds: t), changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: x, y: 500))]))
            engine.send(TouchFrame(time: Instant(seconds: t + 0.05), changes: [TouchChange(sourceID: 1, phase: .moved, location: Point(x: x2, y: 500))]))
            engine.send(TouchFrame(time: Instant(seconds: t + 0.1), changes: [TouchChange(sourceID: 1, phase: .ended, location: Point(x: x2, y: 500))]))
        }
        swipe(from: 6, to: 200, at: 0)       // about 2 mm from the left edge
        swipe(from: 960, to: 1100, at: 1)    // the middle
        swipe(from: 1920 - 40, to: 1700, at: 2) // 12 mm from the right edge: beyond 5 mm
        #expect(said == ["open the menu", "scroll the page", "scroll the page"],
                "expected the edge swipe to open the menu and the others to scroll, got \(said)")
    }
}
