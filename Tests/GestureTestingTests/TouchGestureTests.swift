import GestureKit
import GestureLayout
import GestureTesting
import Testing

/// A photo view as an app makes it: a double tap zooms, a single tap selects once the double
/// tap has failed, a pinch scales, a long press opens a menu.
final class PhotoScreen {
    let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let photo = View(id: "photo", frame: Rect(x: 100, y: 100, width: 400, height: 300))
    let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
    let singleTap = TapGestureRecognizer(name: "singleTap")
    let pinch = PinchGestureRecognizer(name: "pinch")
    let rotation = RotationGestureRecognizer(name: "rotation")
    let longPress = LongPressGestureRecognizer(name: "longPress")
    let pan = PanGestureRecognizer(name: "pan")
    var zooms = 0, selections = 0
    var scales: [Double] = []
    var rotations: [Double] = []

    init() {
        root.addSubview(photo)
        singleTap.require(toFail: doubleTap)
        doubleTap.addTarget { [unowned self] _ in zooms += 1 }
        singleTap.addTarget { [unowned self] _ in selections += 1 }
        pinch.addTarget { [unowned self] p in scales.append(p.scale) }
        rotation.addTarget { [unowned self] r in rotations.append(r.rotation) }
        pinch.recognizeSimultaneously(with: rotation)
        for r in [doubleTap, singleTap, pinch, rotation, longPress, pan] as [GestureRecognizer] { photo.addGestureRecognizer(r) }
    }
}

@Suite("Touchscreen gestures from parameters, on the tester's clock")
struct TouchGestureTests {
    @Test("A single tap selects only after the double tap's interval has run out; a double tap zooms and does not select")
    func tapsAndDoubleTaps() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.tap(on: screen.photo)
        #expect(screen.selections == 0, "the single tap waits for the double tap to fail")
        try tester.settle()
        #expect(screen.selections == 1, "once the double tap's 300 ms have passed, the single tap selects")
        try tester.requireRecognized(screen.singleTap)
        tester.clearRecords()
        try tester.doubleTap(on: screen.photo)
        try tester.settle()
        #expect(screen.zooms == 1, "two taps in quick succession zoom")
        #expect(screen.selections == 1, "and do not select")
        try tester.requireNotRecognized(screen.singleTap)
    }

    @Test("Every event is stamped on the tester's clock, strictly later than the one before, and a deadline between two events fires at its own time")
    func oneClock() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        var times: [Instant] = []
        tester.traceHandler = { event in
            if case let .delivery(d) = event { times.append(d.time) }
        }
        let touch = try tester.touchDown(on: screen.photo)
        try tester.wait(.seconds(2))
        touch.lift()
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "delivery times \(times) should increase")
        let began = try #require(tester.transitions(of: screen.longPress).first { $0.to == .began })
        #expect(began.time == Instant(seconds: 0.5), "the long press begins at its 0.5 s deadline, not at the lift 2 s later")
        #expect(tester.now == Instant(seconds: 2) + tester.sampleInterval)
    }

    @Test("A long press holds the recognizer's own minimum duration plus the stated margin, whatever the app set it to")
    func longPressFollowsTheRecognizer() throws {
        let screen = PhotoScreen()
        screen.longPress.minimumPressDuration = .milliseconds(1200)
        let tester = GestureTester(root: screen.root)
        try tester.longPress(on: screen.photo)
        try tester.requireStates(screen.longPress, [.began, .ended])
        let ended = try #require(tester.transitions(of: screen.longPress).last)
        #expect(ended.time == Instant(seconds: 1.2) + GestureTester.longPressMargin,
                "the finger lifts 1.2 s + \(GestureTester.longPressMargin) after it landed")
    }

    @Test("A fling's release velocity, as the pan measures it, is the velocity asked for (within 2 %)",
          arguments: [(Point(x: 0, y: -300), 1500.0), (Point(x: 250, y: 0), 800.0), (Point(x: 120, y: 160), 3000.0)])
    func flingVelocity(offset: Point, speed: Double) throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.fling(on: screen.photo, by: offset, velocity: speed)
        let ended = try #require(tester.transitions(of: screen.pan).last { $0.to == .ended })
        let v = try #require(ended.values.velocityVector)
        let length = (offset.x * offset.x + offset.y * offset.y).squareRoot()
        let expected = Point(x: offset.x / length * speed, y: offset.y / length * speed)
        #expect(abs(v.x - expected.x) <= 0.02 * speed && abs(v.y - expected.y) <= 0.02 * speed,
                "the pan should end at \(expected) pt/s; it measured \(v)")
    }

    @Test("A drag that stops before it lifts ends with no velocity: nothing flings")
    func dragStops() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.drag(on: screen.photo, by: Point(x: 0, y: 120))
        let ended = try #require(tester.transitions(of: screen.pan).last { $0.to == .ended })
        #expect(ended.values.velocityVector == .zero, "a drag held still before lifting releases at rest")
        #expect(ended.values.translation == Point(x: 0, y: 120), "and has moved the whole 120 pt")
    }

    @Test("A pinch ends at the scale asked for, as the pinch recognizer reports it (within 1 %)", arguments: [2.0, 0.5, 1.3])
    func pinchScale(scale: Double) throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.pinch(on: screen.photo, scale: scale, fingerDistance: 150)
        let last = try #require(screen.scales.last)
        #expect(abs(last / scale - 1) <= 0.01, "the pinch should end at scale \(scale); it reported \(last)")
        try tester.requireStates(screen.pinch, [.began] + Array(repeating: .changed, count: tester.transitions(of: screen.pinch).count - 2) + [.ended])
    }

    @Test("A rotation ends at the angle asked for (within 1 %), and fingers that land and lift staggered still pinch")
    func rotationAndStagger() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.rotate(on: screen.photo, by: .pi / 4, fingerDistance: 150)
        let turned = try #require(screen.rotations.last)
        #expect(abs(turned / (.pi / 4) - 1) <= 0.01, "the rotation should end at π/4; it reported \(turned)")
        try tester.settle()
        screen.scales.removeAll()
        try tester.pinch(on: screen.photo, scale: 1.5, fingerDistance: 150, stagger: .milliseconds(40))
        let last = try #require(screen.scales.last)
        #expect(abs(last / 1.5 - 1) <= 0.01, "a staggered pinch should still end at 1.5; it reported \(last)")
    }

    @Test("Two-finger pans, swipes and a screen-edge pan recognize with their recognizers' defaults")
    func pansSwipesEdges() throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let twoFingers = PanGestureRecognizer(minimumTouches: 2, name: "twoFingers")
        let swipeLeft = SwipeGestureRecognizer(direction: .left, name: "swipeLeft")
        let back = ScreenEdgePanGestureRecognizer(edges: .left, name: "back")
        for r in [twoFingers, swipeLeft, back] as [GestureRecognizer] { root.addGestureRecognizer(r) }
        let tester = GestureTester(root: root)
        try tester.pan(fingers: 2, on: root, by: Point(x: 0, y: 100))
        try tester.requireRecognized(twoFingers)
        try tester.settle()
        try tester.swipe(on: root, .left)
        try tester.requireRecognized(swipeLeft)
        try tester.settle()
        tester.clearRecords()
        try tester.edgePan(from: .left)
        try tester.requireRecognized(back)
    }

    @Test("A thousand taps on a view with three recognizers all recognize, in virtual time")
    func thousandTaps() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        for _ in 0..<1000 {
            try tester.tap(on: screen.photo)
            try tester.settle()
        }
        #expect(screen.selections == 1000)
        #expect(screen.zooms == 0)
    }
}
