import GestureKit

let engine = GestureEngine()
let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
engine.addRoot(photo)

let doubleTap = TapGestureRecognizer(taps: 2) { _ in print("zoom") }
let singleTap = TapGestureRecognizer { tap in print("select at \(tap.location(in: photo))") }
singleTap.require(toFail: doubleTap)
let pinch = PinchGestureRecognizer { pinch in
    if pinch.state == .changed { print("scale \(pinch.scale)") }
}
for recognizer in [doubleTap, singleTap, pinch] as [GestureRecognizer] {
    photo.addGestureRecognizer(recognizer)
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
