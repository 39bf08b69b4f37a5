import GestureKit

/// The photo's handlers, written as a UIKit view controller's: each recognizer calls one of
/// its methods (target and action; the recognizers hold it weakly).
final class PhotoController {
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))

    func zoom(_ tap: TapGestureRecognizer) { print("zoom") }
    func select(_ tap: TapGestureRecognizer) { print("select at \(tap.location(in: photo))") }
    func scale(_ pinch: PinchGestureRecognizer) {
        if pinch.state == .changed { print("scale \(pinch.scale)") }
    }
}

let engine = GestureEngine()
let controller = PhotoController()
engine.addRoot(controller.photo)

let doubleTap = TapGestureRecognizer(target: controller, action: PhotoController.zoom)
doubleTap.numberOfTapsRequired = 2
let singleTap = TapGestureRecognizer(target: controller, action: PhotoController.select)
singleTap.require(toFail: doubleTap)
let pinch = PinchGestureRecognizer(target: controller, action: PhotoController.scale)
for recognizer in [doubleTap, singleTap, pinch] as [GestureRecognizer] {
    controller.photo.addGestureRecognizer(recognizer)
}

// Feed frames from your input source (libinput, a recording); the time is yours.
for (phase, seconds) in [(TouchPhase.began, 0.0), (.ended, 0.05)] {
    let change = TouchChange(sourceID: 0, phase: phase, location: Point(x: 100, y: 100))
    engine.send(TouchFrame(time: Instant(seconds: seconds), changes: [change]))
}
// Wake the engine at its next deadline: the double tap's 0.3 s interval runs out, it
// fails, and the single tap that waited for it fires.
while let deadline = engine.nextDeadline { engine.advance(to: deadline) }
// prints "select at (100.0, 100.0)"
