import GestureKit
import GestureTesting
import Testing

@Test("Gestures take their timing and their distances from the recognizers they are aimed at")
func defaultsFromTheRecognizers() throws {
    let screen = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let card = View(id: "card", frame: Rect(x: 0, y: 0, width: 400, height: 600))
    let photo = View(id: "photo", frame: Rect(x: 400, y: 0, width: 400, height: 600))
    screen.addSubview(card)
    screen.addSubview(photo)
    // testing-defaults:begin
    let menu = LongPressGestureRecognizer(minimumPressDuration: .seconds(1), name: "menu")
    let dismiss = SwipeGestureRecognizer(direction: .left, name: "dismiss")
    card.addGestureRecognizer(menu)
    card.addGestureRecognizer(dismiss)
    let pan = PanGestureRecognizer(name: "pan")
    let pinch = PinchGestureRecognizer(name: "pinch")
    photo.addGestureRecognizer(pan)
    photo.addGestureRecognizer(pinch)
    let tester = GestureTester(root: screen)

    try tester.longPress(on: card)                     // held 1 s + 100 ms
    try tester.requireStates(menu, [.began, .ended])
    try tester.swipe(on: card, .left)                  // 50 + 50 pt in half of 0.5 s
    try tester.requireRecognized(dismiss)

    try tester.fling(on: photo, by: Point(x: 0, y: -300), velocity: 1500)
    let velocity = try #require(tester.transitions(of: pan).last?.values.velocityVector)
    #expect(abs(velocity.y - -1500) < 1)               // what the pan measured at the lift
    try tester.pinch(on: photo, scale: 2)
    let scale = try #require(tester.transitions(of: pinch).last?.values.scale)
    #expect(abs(scale - 2) < 0.02)                     // from the span where the pinch began
    // testing-defaults:end
}
