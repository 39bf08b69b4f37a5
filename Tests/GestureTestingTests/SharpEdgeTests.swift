import GestureKit
import GestureLayout
import GestureTesting
import Testing

/// The parameter a step refused, from its error.
private func refused(_ error: GestureTestError?) -> String? {
    if case let .invalidParameter(parameter, _, _) = error { return parameter }
    return nil
}

@Suite("Bad parameters are thrown errors naming the parameter, never a crash of the test process")
struct BadParameterTests {
    let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))

    @Test("A long press and a touchpad hold of zero or negative duration are refused, naming duration; nothing is sent")
    func zeroDurations() throws {
        let tester = GestureTester(root: root)
        let press = #expect(throws: GestureTestError.self) { try tester.longPress(at: Point(x: 200, y: 200), duration: .zero) }
        #expect(refused(press) == "duration", "\(String(describing: press))")
        let hold = #expect(throws: GestureTestError.self) { try tester.touchpadHold(at: Point(x: 200, y: 200), duration: .zero) }
        #expect(refused(hold) == "duration")
        let drag = #expect(throws: GestureTestError.self) {
            try tester.drag(from: Point(x: 10, y: 10), to: Point(x: 50, y: 10), duration: .milliseconds(-5))
        }
        #expect(refused(drag) == "duration")
        let wait = #expect(throws: GestureTestError.self) { try tester.wait(.milliseconds(-1)) }
        #expect(refused(wait) == "duration")
        #expect(throws: GestureTestError.self) { try tester.wait(seconds: .nan) }
        #expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 200, y: 200), fingers: 2, stagger: .milliseconds(-1)) }
        #expect(!tester.hasSentInput, "no event was made")
    }

    @Test("Empty paths, zero or too many fingers, zero taps, counts and detents, and NaN are refused, naming the parameter")
    func emptyAndNaN() throws {
        let tester = GestureTester(root: root)
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.drag(along: []) }) == "path")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.penStroke(along: []) }) == "path")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.penHover(along: []) }) == "path")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 200, y: 200), fingers: 0) }) == "fingers")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 200, y: 200), fingers: 11) }) == "fingers")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 200, y: 200), taps: 0) }) == "taps")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.click(at: Point(x: 200, y: 200), count: 0) }) == "count")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.scrollWheel(.down, detents: 0, at: Point(x: 9, y: 9)) }) == "detents")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: .nan, y: 200)) }) == "point")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.drag(along: [Point(x: 1, y: 1), Point(x: .infinity, y: 1)]) }) == "path[1]")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.pinch(at: Point(x: 200, y: 200), scale: .nan) }) == "scale")
        #expect(refused(#expect(throws: GestureTestError.self) {
            try tester.fling(from: Point(x: 200, y: 200), by: Point(x: 0, y: 100), velocity: .nan)
        }) == "velocity")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.penStroke(along: [Point(x: 1, y: 1)], force: 2) }) == "force")
        #expect(refused(#expect(throws: GestureTestError.self) { try tester.touchpadSwipe(at: Point(x: 9, y: 9), fingers: 1, by: Point(x: 50, y: 0)) }) == "fingers")
        #expect(!tester.hasSentInput, "no event was made")
    }

    @Test("Fingers that would land off the screen are refused, naming fingers, where they would land and the screen")
    func fingersThatDoNotFit() throws {
        let tester = GestureTester(root: root)
        let error = #expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 10, y: 200), fingers: 3) }
        #expect(refused(error) == "fingers")
        #expect(error?.description.contains("off the screen [0, 0, 400 × 400]") == true, "\(String(describing: error))")
    }

    @Test("A variation out of range is refused when set, and the next gesture throws naming it")
    func badVariation() throws {
        let tester = GestureTester(root: root)
        tester.sampleRate = 0
        #expect(tester.sampleRate == GestureTester.defaultSampleRate, "the rate before is kept")
        let error = #expect(throws: GestureTestError.self) { try tester.tap(at: Point(x: 200, y: 200)) }
        #expect(refused(error) == "variation.sampleRate")
    }
}

@Suite("The sharp edges of the first pass, each found by a test first")
struct SharpEdgeTests {
    @Test("A pinch on a view narrower than the default finger distance lands both fingers on it and reaches its scale")
    func pinchOnANarrowView() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 600))
        let thumbnail = View(id: "thumbnail", frame: Rect(x: 150, y: 100, width: 100, height: 140))
        root.addSubview(thumbnail)
        let pinch = PinchGestureRecognizer(name: "pinch")
        var scale = 1.0
        pinch.addTarget { scale = $0.scale }
        thumbnail.addGestureRecognizer(pinch)
        let tester = GestureTester(root: root)
        try tester.pinch(on: thumbnail, scale: 2)
        try tester.requireRecognized(pinch)
        #expect(abs(scale - 2) < 0.02, "the pinch reported \(scale)")
    }

    @Test("A fling's samples are evenly spaced: no two moves closer than half a sample (the last two were 10 ns apart)",
          arguments: [60, 120, 240])
    func flingSamplesEvenlySpaced(rate: Int) throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 800))
        let tester = GestureTester(root: root)
        tester.sampleRate = rate
        var times: [Instant] = []
        tester.traceHandler = { if case let .delivery(d) = $0, d.phase == .moved { times.append(d.time) } }
        try tester.fling(from: Point(x: 400, y: 600), by: Point(x: 0, y: -300), velocity: 1000)
        let gaps = zip(times, times.dropFirst()).map { ($1 - $0).nanosecondCount }
        let half = tester.sampleInterval.nanosecondCount / 2
        #expect(gaps.allSatisfy { $0 >= half }, "gaps between moves (ns): \(gaps)")
        #expect(times.last.map { $0 - times[0] + tester.sampleInterval } != nil)
    }

    @Test("Sample times are k/rate seconds from the gesture's start, rounded once: the third sample of a drag is at 25 ms, not 24.999999")
    func sampleTimesDoNotTruncate() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tester = GestureTester(root: root)
        var times: [Instant] = []
        tester.traceHandler = { if case let .delivery(d) = $0 { times.append(d.time) } }
        try tester.drag(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100))
        #expect(times.count > 4)
        #expect(times[3] == Instant(nanoseconds: 25_000_000), "the third move: \(times[3].nanoseconds) ns")
        #expect(tester.sampleInterval == .nanoseconds(8_333_333))
    }

    @Test("The wheel's directions have names: .down shows what is further down, .up back")
    func wheelDirectionsByName() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let list = ScrollView(id: "list", frame: root.frame)
        list.contentSize = Size(width: 400, height: 10_000)
        root.addSubview(list)
        let tester = GestureTester(root: root)
        try tester.scrollWheel(.down, detents: 3, on: list)
        try tester.settle()
        #expect(list.contentOffset.y == 45, "three detents down move the content 3 × 15 pt: \(list.contentOffset)")
        try tester.scrollWheel(.up, detents: 1, on: list)
        try tester.settle()
        #expect(list.contentOffset.y == 30)
        try tester.touchpadScroll(.down, by: 100, on: list, release: .stopped)
        try tester.settle()
        #expect(list.contentOffset.y == 130, "a touchpad scroll down by 100 pt: \(list.contentOffset)")
    }

    @Test("A pinch's line is fingerLineAngle (π/2: one finger above the other); a turn is rotation")
    func pinchLineAndTurn() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 600, height: 600))
        let rotation = RotationGestureRecognizer(name: "rotation")
        var turned = 0.0
        rotation.addTarget { turned = $0.rotation }
        root.addGestureRecognizer(rotation)
        let tester = GestureTester(root: root)
        var landed: [Point] = []
        tester.traceHandler = { if case let .delivery(d) = $0, d.phase == .began { landed += d.touches.map(\.location) } }
        try tester.pinch(at: Point(x: 300, y: 300), scale: 1, rotation: .pi / 4, fingerLineAngle: .pi / 2)
        #expect(landed.count == 2 && abs(landed[0].x - landed[1].x) < 1e-6, "one above the other: \(landed)")
        #expect(abs(turned / (.pi / 4) - 1) < 0.01, "the turn is the rotation: \(turned)")
    }

    @Test("Taps in a row land the measured pause apart, not a sample apart, and are still a double tap")
    func tapsInARowArePaused() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
        doubleTap.delaysTouchesEnded = false    // the view sees the lifts when they happen
        doubleTap.cancelsTouchesInView = false
        root.addGestureRecognizer(doubleTap)
        let tester = GestureTester(root: root)
        var downs: [Instant] = [], ups: [Instant] = []
        tester.traceHandler = {
            if case let .delivery(d) = $0 {
                if d.phase == .began { downs.append(d.time) }
                if d.phase == .ended { ups.append(d.time) }
            }
        }
        try tester.tap(at: Point(x: 200, y: 200))
        try tester.tap(at: Point(x: 200, y: 200))
        #expect(ups[0] - downs[0] == GestureTester.tapHold)
        #expect(downs[1] - ups[0] == GestureTester.tapPause, "the second tap lands \(downs[1] - ups[0]) after the first lifts")
        try tester.requireRecognized(doubleTap)
    }
}
