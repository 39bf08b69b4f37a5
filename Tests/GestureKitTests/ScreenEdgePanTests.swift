import Testing
import GestureKit
import GestureTestSupport

/// The screen edge pan on scripted touches (points; physical margins are tested on the
/// recordings in GestureReplayTests/KioskTests.swift).
@Suite struct ScreenEdgePanTests {
    @Test("a touch within 20 pt of the left edge that moves right begins the edge pan")
    func beginsAtTheEdge() {
        let h = Harness(screen: Size(width: 800, height: 480))
        var translations: [Double] = []
        h.add(ScreenEdgePanGestureRecognizer(edges: .left, name: "edge") { translations.append($0.translation.x) })
        h.down(0, 8, 240, at: 0)
        for i in 1...5 { h.move(0, 8 + Double(i) * 10, 240, at: Double(i) * 0.01) }
        h.up(0, 58, 240, at: 0.06)
        #expect(h.lines("edge") == ["0.010 edge: possible→began", "0.020 edge: began→changed", "0.030 edge: changed→changed",
                                    "0.040 edge: changed→changed", "0.050 edge: changed→changed", "0.060 edge: changed→ended"],
                "expected the edge pan to begin once it moved 10 pt inwards and end at the lift, got \(h.lines("edge"))")
        #expect(translations == [10, 20, 30, 40, 50, 50], "expected a pan's translation from where the touch came down (10 pt at began), got \(translations)")
    }

    @Test("a first touch beyond the margin fails the edge pan at touch-down, in points when the device's size is unknown")
    func failsAwayFromTheEdge() {
        let h = Harness(screen: Size(width: 800, height: 480))
        h.add(ScreenEdgePanGestureRecognizer(edges: [.left, .right], name: "edge"))
        h.down(0, 30, 240, at: 0)
        #expect(h.lines("edge") == ["0.000 edge: possible→failed"], "expected the edge pan to fail at once")
        #expect(h.reasons["edge"] == ["began 30 pt from the nearest edge > margin 20 pt"])
    }

    @Test("the margin is in millimetres when the engine knows the device's scale")
    func millimetres() {
        let h = Harness(screen: Size(width: 800, height: 480))
        h.engine.pointsPerMillimetre[InputDeviceID(0)] = 4 // 200 mm wide
        h.add(ScreenEdgePanGestureRecognizer(edges: .right, name: "edge"))
        h.down(0, 800 - 24, 240, at: 0) // 6 mm from the right edge: beyond 5 mm
        #expect(h.reasons["edge"] == ["began 6 mm from the nearest edge > margin 5 mm"],
                "expected 24 pt at 4 pt/mm to be 6 mm, beyond the 5 mm margin")
        h.up(0, 776, 240, at: 0.01)
        h.down(1, 800 - 16, 240, at: 0.1) // 4 mm: within
        h.move(1, 760, 240, at: 0.11)
        #expect(h.lines("edge").last == "0.110 edge: possible→began", "expected a touch 4 mm from the edge to begin the edge pan")
    }

    @Test("an edge touch that slides along the edge is not an edge swipe")
    func alongTheEdge() {
        let h = Harness(screen: Size(width: 800, height: 480))
        h.add(ScreenEdgePanGestureRecognizer(edges: .left, name: "edge"))
        h.down(0, 5, 100, at: 0)
        h.move(0, 7, 130, at: 0.02)
        #expect(h.lines("edge") == ["0.020 edge: possible→failed"])
        #expect(h.reasons["edge"] == ["moved down, not an allowed direction"])
    }

    @Test("with pan.require(toFail: edgePan), an edge touch goes to the edge pan and a touch elsewhere pans at once")
    func withAPlainPan() throws {
        let h = Harness(screen: Size(width: 800, height: 480))
        let edge = h.add(ScreenEdgePanGestureRecognizer(edges: .left, name: "edge"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.require(toFail: edge)
        h.down(0, 4, 240, at: 0)
        h.move(0, 30, 240, at: 0.02)
        h.up(0, 30, 240, at: 0.04)
        #expect(h.lines("edge").first == "0.020 edge: possible→began")
        #expect(h.lines("pan").first == "0.020 pan: possible→failed", "expected the plain pan excluded by the edge pan")
        h.clear()
        h.down(1, 300, 240, at: 1)
        h.move(1, 330, 240, at: 1.02)
        #expect(h.lines("edge") == ["1.000 edge: possible→failed"])
        #expect(h.lines("pan") == ["1.020 pan: possible→began"], "expected the plain pan to begin at its threshold, not kept waiting")
    }
}

@Suite struct ScreenEdgePanFirstTouchTests {
    @Test("a screen edge pan follows its first touch only: a second finger neither moves it nor keeps it alive")
    func firstTouchOnly() {
        let h = Harness(screen: Size(width: 800, height: 480))
        var locations: [Point] = []
        let edge = h.add(ScreenEdgePanGestureRecognizer(edges: .left, name: "edge") { locations.append($0.location(in: nil)) })
        h.down(0, 8, 240, at: 0)
        h.down(1, 400, 100, at: 0.005)
        h.frame(0.01, [(0, .moved, 28, 240), (1, .moved, 600, 300)])
        h.frame(0.02, [(1, .moved, 700, 400)])
        #expect(h.lines("edge") == ["0.010 edge: possible→began"], "the second finger's move is not a change, got \(h.lines("edge"))")
        #expect(locations == [Point(x: 28, y: 240)], "its location is the first touch's, got \(locations)")
        #expect(edge.translation == Point(x: 20, y: 0))
        h.up(0, 28, 240, at: 0.03)
        #expect(h.lines("edge").last == "0.030 edge: began→ended", "it ends when the first touch lifts, the second still down")
        h.up(1, 700, 400, at: 0.04)
        #expect(edge.state == .possible)
    }
}
