import GestureKit
import GestureLayout

// One finger, one frame every 10 ms, through `points`: what an input source would send.
func stroke(_ engine: GestureEngine, from start: Double, through points: [Point]) -> Double {
    var time = start
    for (i, p) in points.enumerated() {
        let phase: TouchPhase = i == 0 ? .began : (i == points.count - 1 ? .ended : .moved)
        engine.send(TouchFrame(time: Instant(seconds: time), changes: [TouchChange(sourceID: 0, phase: phase, location: p)]))
        time += 0.01
    }
    while let deadline = engine.nextDeadline { engine.advance(to: deadline) }
    return time + 1
}

/// What the `downstream` program does (its main.swift calls it): the app's views and
/// recognizers fed by hand-made frames, printing what they recognized. The app code lives in
/// this library so that the package's tests (DownstreamTests) can import it too.
public func runDownstreamProgram() {
    // A custom recognizer: a checkmark on a canvas.
    let engine = GestureEngine()
    let canvas = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 400, height: 400))
    engine.addRoot(canvas)
    let checkmark = CheckmarkGestureRecognizer()
    checkmark.addTarget { _ in print("checkmark") }
    canvas.addGestureRecognizer(checkmark)
    engine.traceHandler = { event in
        if case let .transition(t) = event, t.to == .failed { print("\(t.recognizer.name): \(t.reason)") }
    }
    let down = (0...10).map { Point(x: 100 + Double($0) * 3, y: 100 + Double($0) * 3) }
    let up = (1...20).map { Point(x: 130 + Double($0) * 3, y: 130 - Double($0) * 4) }
    var t = stroke(engine, from: 0, through: down + up)
    t = stroke(engine, from: t, through: (0...10).map { Point(x: 100 + Double($0) * 3, y: 100) })

    // A collection view: a drag scrolls it (270 pt under the finger, then the content keeps the
    // release's 1,500 pt/s and comes to rest 1.5 × 499 = 748.5 pt further on), a tap selects the
    // photo under the finger.
    let photosEngine = GestureEngine()
    let photos = Photos(frame: Rect(x: 0, y: 0, width: 340, height: 600))
    photosEngine.addRoot(photos.collection)
    t = stroke(photosEngine, from: 0, through: (0...20).map { Point(x: 170, y: 500 - Double($0) * 15) })
    print("scrolled to", photos.collection.contentOffset)
    t = stroke(photosEngine, from: t, through: [Point(x: 50, y: 100), Point(x: 50, y: 100)])
    print("selected", photos.selected)
}
