import Foundation
import GestureKit
import Testing

/// The idioms UIKit apps write in their actions: apply the change and reset the value
/// (`pinch.scale = 1`, `rotation.rotation = 0`, `pan.setTranslation(.zero, in: view)`), so
/// each action sees only the change since the last one.
@Suite("UIKit idioms in actions")
struct UIKitIdiomTests {
    /// Two fingers at `centre ± (radius, 0)` turned by `angle`, one frame every 10 ms.
    static func twoFingers(_ engine: GestureEngine, radii: [Double], angles: [Double]) {
        let centre = Point(x: 500, y: 500)
        for (i, (r, a)) in zip(radii, angles).enumerated() {
            let phase: TouchPhase = i == 0 ? .began : (i == radii.count - 1 ? .ended : .moved)
            let dx = r * cos(a), dy = r * sin(a)
            engine.send(TouchFrame(time: Instant(seconds: Double(i) * 0.01), changes: [
                TouchChange(sourceID: 0, phase: phase, location: Point(x: centre.x - dx, y: centre.y - dy)),
                TouchChange(sourceID: 1, phase: phase, location: Point(x: centre.x + dx, y: centre.y + dy)),
            ]))
        }
        engine.finish()
    }

    @Test("an action that applies each pinch change and sets scale back to 1 ends with the whole zoom")
    func pinchScaleResetIdiom() {
        let engine = GestureEngine()
        let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        engine.addRoot(photo)
        var zoom = 1.0, scaleAtEnd = 0.0
        var began = false
        let plain = PinchGestureRecognizer()
        let pinch = PinchGestureRecognizer { pinch in
            if pinch.state == .began { began = true }
            if pinch.state == .changed {
                zoom *= pinch.scale
                pinch.scale = 1
            }
        }
        plain.addTarget { p in if p.state == .changed || p.state == .ended { scaleAtEnd = p.scale } }
        plain.recognizeSimultaneously(with: pinch)
        photo.addGestureRecognizer(pinch)
        photo.addGestureRecognizer(plain)
        let radii = (0...40).map { 100 + Double($0) * 5 }   // 100 → 300 pt
        Self.twoFingers(engine, radii: radii, angles: Array(repeating: 0, count: radii.count))
        #expect(began, "the pinch should begin")
        #expect(abs(zoom - scaleAtEnd) < 1e-9,
                "applying each change and resetting scale to 1 should add up to the scale a recognizer left alone reports (\(scaleAtEnd)); got \(zoom)")
        #expect(scaleAtEnd > 2.5, "the fingers spread from 100 to 295 pt apart; the pinch should report most of that")
    }

    @Test("an action that applies each turn and sets rotation back to 0 ends with the whole turn")
    func rotationResetIdiom() {
        let engine = GestureEngine()
        let dial = View(id: "dial", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        engine.addRoot(dial)
        var turned = 0.0, rotationAtEnd = 0.0
        let plain = RotationGestureRecognizer()
        let rotation = RotationGestureRecognizer { r in
            if r.state == .changed {
                turned += r.rotation
                r.rotation = 0
            }
        }
        plain.addTarget { r in if r.state == .changed || r.state == .ended { rotationAtEnd = r.rotation } }
        plain.recognizeSimultaneously(with: rotation)
        dial.addGestureRecognizer(rotation)
        dial.addGestureRecognizer(plain)
        let angles = (0...40).map { Double($0) * 0.03 }   // 0 → 1.2 rad
        Self.twoFingers(engine, radii: Array(repeating: 150, count: angles.count), angles: angles)
        #expect(abs(turned - rotationAtEnd) < 1e-9,
                "applying each turn and resetting rotation to 0 should add up to what a recognizer left alone reports (\(rotationAtEnd)); got \(turned)")
        #expect(rotationAtEnd > 0.8, "the fingers turned 1.2 rad; the rotation should report most of it")
    }

    @Test("an action that moves a card by each translation and sets it back to zero moves it as far as the finger")
    func panSetTranslationIdiom() {
        let engine = GestureEngine()
        let table = View(id: "table", frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        engine.addRoot(table)
        var card = Point(x: 0, y: 0), translationAtEnd = Point.zero
        var lastVelocity = Point.zero
        let plain = PanGestureRecognizer()
        let pan = PanGestureRecognizer { pan in
            if pan.state == .changed || pan.state == .ended {
                card = card + pan.translation(in: table)
                pan.setTranslation(.zero, in: table)
                lastVelocity = pan.velocity(in: table)
            }
        }
        plain.addTarget { p in if p.state == .changed || p.state == .ended { translationAtEnd = p.translation } }
        plain.recognizeSimultaneously(with: pan)
        table.addGestureRecognizer(pan)
        table.addGestureRecognizer(plain)
        for i in 0...30 {
            let phase: TouchPhase = i == 0 ? .began : (i == 30 ? .ended : .moved)
            engine.send(TouchFrame(time: Instant(seconds: Double(i) * 0.01), changes: [
                TouchChange(sourceID: 0, phase: phase, location: Point(x: 100 + Double(i) * 10, y: 100)),
            ]))
        }
        engine.finish()
        #expect(abs(card.x - translationAtEnd.x) < 1e-9 && card.y == 0,
                "the card should move as far as a pan left alone reports (\(translationAtEnd)); it moved \(card)")
        #expect(translationAtEnd.x > 250, "the finger moved 300 pt; the pan should report most of it")
        #expect(lastVelocity.x > 900, "the finger moved at 1,000 pt/s to the last frame; velocity(in:) should say so (got \(lastVelocity))")
    }
}
