import GestureGTK
import GestureKit

/// A canvas's handlers, written as a UIKit view controller's.
final class CanvasController {
    let canvas = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 800, height: 600))

    func select(_ tap: TapGestureRecognizer) { print("select at \(tap.location(in: canvas))") }
    func zoom(_ tap: TapGestureRecognizer) { print("zoom") }
    func scale(_ pinch: PinchGestureRecognizer) {
        if pinch.state == .changed { print("scale \(pinch.scale)") }
    }
}

let engine = GestureEngine()
let controller = CanvasController()
engine.addRoot(controller.canvas)

let doubleTap = TapGestureRecognizer(target: controller, action: CanvasController.zoom)
doubleTap.numberOfTapsRequired = 2
let singleTap = TapGestureRecognizer(target: controller, action: CanvasController.select)
singleTap.require(toFail: doubleTap)
let pinch = PinchGestureRecognizer(target: controller, action: CanvasController.scale)
for recognizer in [doubleTap, singleTap, pinch] as [GestureRecognizer] {
    controller.canvas.addGestureRecognizer(recognizer)
}

// A GTK window of the canvas's size: touches, mouse, wheel and touchpad gestures go to
// the engine on GDK's event times; its deadlines run on GLib's main loop.
do {
    let window = try GTKGestureWindow(title: "Canvas", size: controller.canvas.frame.size, client: engine)
    window.run()
} catch {
    print("no window: \(error)")
}

/// The same engine on a widget of the app's own: a `GtkWidget *` from any GTK binding, as an
/// `UnsafeMutableRawPointer`. GestureGTK reads the widget's input; the app redraws it.
func attach(_ engine: GestureEngine, to widget: UnsafeMutableRawPointer,
            redraw: @escaping () -> Void) -> GTKGestureInput {
    let input = GTKGestureInput(widget: widget, client: engine)
    input.afterInput = redraw
    return input
}
