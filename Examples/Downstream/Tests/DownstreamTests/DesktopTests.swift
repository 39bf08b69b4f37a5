import GestureKit
import GestureLayout
import GestureTesting
import Testing

@Test("A double click with ⌘ held, a wheel, a touchpad pinch and a pen stroke reach the app's recognizers")
func desktopInput() throws {
    let window = View(id: "window", frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let list = ScrollView(id: "list", frame: Rect(x: 0, y: 0, width: 400, height: 600))
    list.contentSize = Size(width: 400, height: 5000)
    let canvas = View(id: "canvas", frame: Rect(x: 400, y: 0, width: 400, height: 600))
    window.addSubview(list)
    window.addSubview(canvas)
    // testing-desktop:begin
    let open = TapGestureRecognizer(taps: 2, name: "open")
    var modifiers: ModifierFlags = []
    open.addTarget { modifiers = $0.modifierFlags }
    let zoom = PinchGestureRecognizer(name: "zoom")
    let ink = PanGestureRecognizer(name: "ink")
    ink.allowedTouchTypes = .pencil
    for recognizer in [open, zoom, ink] as [GestureRecognizer] { canvas.addGestureRecognizer(recognizer) }
    let tester = GestureTester(root: window)

    try tester.click(on: canvas, count: 2, modifiers: .command)
    try tester.requireRecognized(open)
    #expect(modifiers == .command)
    try tester.scrollWheel(.down, detents: 3, on: list)
    try tester.settle()
    #expect(list.contentOffset.y == 45)                // 15 pt a detent
    try tester.touchpadPinch(at: Point(x: 600, y: 300), scale: 1.5)
    try tester.requireRecognized(zoom)
    try tester.penStroke(along: [Point(x: 450, y: 100), Point(x: 700, y: 150)], force: 0.7)
    try tester.requireRecognized(ink)
    // testing-desktop:end
}
