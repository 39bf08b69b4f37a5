import GestureKit
import GestureLayout
import GestureTesting
import Testing

@Suite("Desktop input through the engine's own types: mouse, wheel, touchpad, pen, modifiers")
struct DesktopInputTests {
    @Test("A double click with ⌘ held recognizes a two-tap recognizer, which sees the modifier")
    func doubleClickWithModifier() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 600, height: 400))
        let doubleClick = TapGestureRecognizer(taps: 2, name: "doubleClick")
        var flags: ModifierFlags = []
        doubleClick.addTarget { flags = $0.modifierFlags }
        root.addGestureRecognizer(doubleClick)
        let tester = GestureTester(root: root)
        try tester.click(on: root, count: 2, modifiers: .command)
        try tester.requireRecognized(doubleClick)
        #expect(flags == .command)
    }

    @Test("A secondary click does not recognize a primary-button tap")
    func secondaryClick() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 600, height: 400))
        let tap = TapGestureRecognizer(name: "tap")
        root.addGestureRecognizer(tap)
        let tester = GestureTester(root: root)
        try tester.click(at: Point(x: 10, y: 10), button: .secondary)
        try tester.settle()
        try tester.requireNotRecognized(tap)
    }

    @Test("Wheel detents scroll a scroll view by 15 pt each; a touchpad scroll that lifts moving flings it")
    func wheelAndTouchpadScroll() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let scroll = ScrollView(id: "list", frame: root.frame)
        scroll.contentSize = Size(width: 400, height: 10_000)
        root.addSubview(scroll)
        let tester = GestureTester(root: root)
        try tester.scrollWheel(.down, detents: 3, on: scroll)
        try tester.settle()
        #expect(scroll.contentOffset.y == 45, "three detents towards you move the content 3 × 15 pt")
        try tester.touchpadScroll(at: Point(x: 200, y: 200), by: Point(x: 0, y: -300))
        #expect(scroll.isDecelerating, "a touchpad scroll lifted while moving flings")
        try tester.settle()
        #expect(scroll.contentOffset.y > 345)
    }

    @Test("A touchpad pinch at the pointer drives a pinch recognizer to the scale the touchpad reported")
    func touchpadPinch() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let pinch = PinchGestureRecognizer(name: "pinch")
        var scale = 1.0
        pinch.addTarget { scale = $0.scale }
        root.addGestureRecognizer(pinch)
        let tester = GestureTester(root: root)
        try tester.touchpadPinch(at: Point(x: 200, y: 200), scale: 1.8)
        try tester.requireStates(pinch, [.began] + Array(repeating: .changed, count: tester.states(of: pinch).count - 2) + [.ended])
        #expect(abs(scale - 1.8) < 1e-9)
    }

    @Test("A pen stroke reaches a pencil-only pan with its force and angles; the mouse does not; the eraser is a pen tool")
    func penStroke() throws {
        let root = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let ink = PanGestureRecognizer(name: "ink")
        ink.allowedTouchTypes = .pencil
        root.addGestureRecognizer(ink)
        let tester = GestureTester(root: root)
        try tester.mouseDrag(from: Point(x: 10, y: 10), to: Point(x: 200, y: 10))
        try tester.requireNotRecognized(ink)
        var forces: [Double] = []
        var tools: [PenTool] = []
        tester.traceHandler = { event in
            if case let .delivery(d) = event, let t = d.touches.first, t.deviceKind == .pen {
                forces.append(t.force)
                tools.append(t.penSample.tool)
            }
        }
        try tester.penStroke(along: [Point(x: 50, y: 50), Point(x: 250, y: 80)], force: 0.7)
        try tester.requireRecognized(ink)
        #expect(!forces.isEmpty && forces.allSatisfy { $0 == 0.7 })
        try tester.penStroke(along: [Point(x: 50, y: 200), Point(x: 250, y: 200)], tool: .eraser)
        #expect(tools.last == .eraser)
    }

    @Test("Hovering the mouse or a pen over a view begins a hover recognizer there; leaving ends it")
    func hover() throws {
        let root = View(id: "window", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let card = View(id: "card", frame: Rect(x: 100, y: 100, width: 100, height: 100))
        root.addSubview(card)
        let hover = HoverGestureRecognizer(name: "hover")
        card.addGestureRecognizer(hover)
        let tester = GestureTester(root: root)
        try tester.movePointer(to: Point(x: 10, y: 10))
        try tester.hover(over: card, duration: .milliseconds(100))
        #expect(tester.states(of: hover).first == .began)
        try tester.movePointer(to: Point(x: 10, y: 10), duration: .milliseconds(100))
        #expect(tester.states(of: hover).last == .ended)
        tester.clearRecords()
        try tester.penHover(along: [Point(x: 150, y: 150), Point(x: 160, y: 160)])
        #expect(tester.states(of: hover).first == .began, "a pen in proximity hovers too")
    }
}
