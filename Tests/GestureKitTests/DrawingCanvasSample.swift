import GestureKit

/// A drawing canvas as a desktop or tablet app writes it: the pen's tip inks (harder is
/// wider), fingers pan the canvas, a right click or a control-click opens a menu, and a
/// hovering pen shows the brush at its height.
final class DrawingCanvas {
    let view = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 1000, height: 600))
    private(set) var strokes: [[(point: Point, width: Double)]] = []
    private(set) var brush: (point: Point, height: Double)?
    private(set) var menuOpened = 0
    private(set) var canvasOffset = Point.zero

    init() {
        // The pen's touches reach the view, as a UIKit canvas's touchesMoved reads them.
        view.onTouches = { [weak self] view, phase, touches in
            for touch in touches where touch.type == .pencil { self?.ink(touch, phase, in: view) }
        }

        let scroll = PanGestureRecognizer(target: self, action: DrawingCanvas.scroll)
        scroll.allowedTouchTypes = .direct           // fingers move the canvas, the pen never
        view.addGestureRecognizer(scroll)

        let menu = TapGestureRecognizer(target: self, action: DrawingCanvas.openMenu)
        menu.buttonMaskRequired = .secondary         // a right click
        view.addGestureRecognizer(menu)

        let click = TapGestureRecognizer(target: self, action: DrawingCanvas.click)
        click.allowedTouchTypes = .indirectPointer   // a left click
        view.addGestureRecognizer(click)

        view.addGestureRecognizer(HoverGestureRecognizer(target: self, action: DrawingCanvas.hover))
    }

    func ink(_ touch: Touch, _ phase: TouchPhase, in view: View) {
        if phase == .began { strokes.append([]) }
        guard phase != .cancelled, !strokes.isEmpty else { return }
        let pressure = touch.force / max(touch.maximumPossibleForce, 1)
        strokes[strokes.count - 1].append((touch.location(in: view), 1 + 9 * pressure))
    }

    func scroll(_ pan: PanGestureRecognizer) {
        canvasOffset = pan.translation(in: view)
    }

    func openMenu(_ tap: TapGestureRecognizer) {
        menuOpened += 1
    }

    func click(_ tap: TapGestureRecognizer) {
        if tap.modifierFlags.contains(.control) { menuOpened += 1 }   // control-click: the menu too
    }

    func hover(_ hover: HoverGestureRecognizer) {
        let over = hover.state == .began || hover.state == .changed
        brush = over ? (hover.location(in: view), hover.zOffset) : nil
    }
}
