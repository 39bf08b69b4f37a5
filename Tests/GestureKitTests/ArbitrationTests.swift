import Foundation
import Testing
@testable import GestureKit
import GestureTestSupport

final class Delegate: GestureRecognizerDelegate {
    var shouldBegin = true
    var receive: (Touch) -> Bool = { _ in true }
    var simultaneousWith: [ObjectIdentifier] = []
    var requireFailureOf: [ObjectIdentifier] = []
    var requiredToFailBy: [ObjectIdentifier] = []

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { receive(touch) }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneousWith.contains(ObjectIdentifier(other))
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        requireFailureOf.contains(ObjectIdentifier(other))
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        requiredToFailBy.contains(ObjectIdentifier(other))
    }
}

@Suite("Exclusivity, simultaneity and the delegate")
struct ArbitrationTests {
    func pinchAndRotate(_ h: Harness) {
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        for i in 1...10 {
            let a = Double(i) * 0.06, r = 100 + Double(i) * 6
            h.frame(Double(i) * 0.01, [(0, .moved, 500 - r * cos(a), 500 - r * sin(a)), (1, .moved, 500 + r * cos(a), 500 + r * sin(a))])
        }
        h.frame(0.2, [(0, .ended, 500, 500), (1, .ended, 500, 500)])
    }

    @Test("two exclusive recognizers: the first to begin wins, the other fails")
    func exclusive() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.add(RotationGestureRecognizer(name: "rotate"))
        pinchAndRotate(h)
        #expect(h.lines("pinch").first == "0.020 pinch: possible→began")
        #expect(h.lines("rotate") == ["0.020 rotate: possible→failed"])
        #expect(h.reasons["rotate"] == ["pinch recognized and they are not simultaneous"])
    }

    @Test("a simultaneous pair both begin", arguments: ["declared", "delegate"])
    func simultaneous(_ how: String) {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        let rotate = h.add(RotationGestureRecognizer(name: "rotate"))
        let d = Delegate()
        if how == "declared" {
            pinch.recognizeSimultaneously(with: rotate)
        } else {
            d.simultaneousWith = [ObjectIdentifier(pinch)]
            rotate.delegate = d
        }
        pinchAndRotate(h)
        #expect(h.lines("pinch").first == "0.020 pinch: possible→began")
        #expect(h.lines("rotate").first == "0.040 rotate: possible→began")
        #expect(h.lines("rotate").last == "0.200 rotate: changed→ended")
    }

    @Test("a recognizer that has begun prevents an exclusive one from recognizing on the same touches")
    func prevented() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "press"))
        h.add(TapGestureRecognizer(name: "tap"))
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.5)
        #expect(h.lines("press") == ["0.500 press: possible→began"])
        #expect(h.lines("tap") == ["0.500 tap: possible→failed"], "the tap is excluded by the long press")
    }

    @Test("shouldBegin saying no fails the recognizer")
    func shouldBegin() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        let d = Delegate()
        d.shouldBegin = false
        tap.delegate = d
        h.tap(at: 0)
        #expect(h.lines("tap") == ["0.050 tap: possible→failed"])
        #expect(h.reasons["tap"] == ["delegate's shouldBegin said no"])
    }

    @Test("shouldReceive saying no hides that touch for its whole life")
    func shouldReceive() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        let d = Delegate()
        d.receive = { $0.location.x < 500 }
        tap.delegate = d
        h.tap(0, 700, 500, at: 0)
        #expect(h.lines("tap").isEmpty, "the touch on the right is never seen")
        h.tap(0, 300, 500, at: 1)
        #expect(h.lines("tap") == ["1.050 tap: possible→ended"])
    }

    @Test("shouldRequireFailureOf and shouldBeRequiredToFailBy make a recognizer wait", arguments: [true, false])
    func delegateRequirement(_ fromWaiter: Bool) {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        let d = Delegate()
        if fromWaiter {
            d.requireFailureOf = [ObjectIdentifier(double)]
            single.delegate = d
        } else {
            d.requiredToFailBy = [ObjectIdentifier(single)]
            double.delegate = d
        }
        h.tap(at: 0)
        #expect(h.lines("single").isEmpty)
        h.finish()
        #expect(h.lines("single") == ["0.350 single: possible→ended"])
    }
}

@Suite("Hit-testing, reset, disabling")
struct ViewTreeTests {
    @Test("a touch goes to the front-most view that contains it and takes touches")
    func hitTesting() {
        let h = Harness()
        let back = View(id: "back", frame: Rect(x: 100, y: 100, width: 400, height: 400))
        let front = View(id: "front", frame: Rect(x: 200, y: 200, width: 200, height: 200))
        let inner = View(id: "inner", frame: Rect(x: 50, y: 50, width: 50, height: 50))
        h.root.addSubview(back)
        h.root.addSubview(front)
        front.addSubview(inner)
        #expect(h.engine.hitTest(Point(x: 260, y: 260))?.id == "inner", "nested frames are in the parent's coordinates")
        #expect(h.engine.hitTest(Point(x: 210, y: 210))?.id == "front", "later siblings are in front")
        #expect(h.engine.hitTest(Point(x: 150, y: 150))?.id == "back")
        #expect(h.engine.hitTest(Point(x: 50, y: 50))?.id == "root")
        front.isHidden = true
        #expect(h.engine.hitTest(Point(x: 260, y: 260))?.id == "back", "a hidden view and its subviews are skipped")
        front.isHidden = false
        front.isUserInteractionEnabled = false
        #expect(h.engine.hitTest(Point(x: 260, y: 260))?.id == "back", "so is a view with user interaction disabled")
        #expect(h.engine.hitTest(Point(x: 1500, y: 10)) == nil)
    }

    @Test("the hit view's and its ancestors' recognizers see the touch; a sibling's do not")
    func recognizersOnAncestors() {
        let h = Harness()
        let a = View(id: "a", frame: Rect(x: 0, y: 0, width: 500, height: 500))
        let b = View(id: "b", frame: Rect(x: 500, y: 0, width: 500, height: 500))
        h.root.addSubview(a)
        h.root.addSubview(b)
        h.add(TapGestureRecognizer(name: "onRoot"))
        h.add(LongPressGestureRecognizer(touches: 1, name: "onA"), to: a)
        h.add(TapGestureRecognizer(name: "onB"), to: b)
        h.tap(0, 100, 100, at: 0)
        #expect(h.lines("onRoot") == ["0.050 onRoot: possible→ended"])
        #expect(h.lines("onA") == ["0.050 onA: possible→failed"])
        #expect(h.lines("onB").isEmpty)
        #expect(h.lines("a") == ["0.000 a: touchesBegan [1]", "0.050 a: touchesCancelled [1]"], "the view the touch hit receives it")
    }

    @Test("the recognizer's location is in its view's coordinates")
    func locationInView() {
        let h = Harness()
        let cell = View(id: "cell", frame: Rect(x: 100, y: 200, width: 300, height: 300))
        h.root.addSubview(cell)
        h.add(TapGestureRecognizer(name: "tap"), to: cell)
        h.tap(0, 150, 260, at: 0)
        #expect(h.transitions.first?.location == Point(x: 50, y: 60))
    }

    @Test("a final state lasts until every finger of the sequence has lifted; then the recognizer starts afresh")
    func resetAtTheEndOfTheSequence() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.down(0, 500, 500, at: 0)
        h.move(0, 530, 500, at: 0.05)          // fails: moved too far; finger 0 stays down
        h.tap(1, 200, 200, at: 0.1)             // joins the failed sequence: nothing
        #expect(h.lines("tap") == ["0.050 tap: possible→failed"])
        h.up(0, 530, 500, at: 0.3)              // the sequence ends: the tap is reset
        h.tap(2, 200, 200, at: 0.4)
        #expect(h.lines("tap") == ["0.050 tap: possible→failed", "0.450 tap: possible→ended"],
                "a tap after every finger lifted is recognized")
    }

    @Test("disabling mid-gesture cancels a begun recognizer and fails a possible one")
    func disabling() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        let tap = h.add(TapGestureRecognizer(taps: 2, name: "double"))
        tap.cancelsTouchesInView = false
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.6)
        press.isEnabled = false
        #expect(h.lines("press") == ["0.500 press: possible→began", "0.600 press: began→cancelled"])
        h.up(0, 500, 500, at: 0.7)
        press.isEnabled = true
        h.tap(at: 1)
        tap.isEnabled = false
        #expect(h.lines("double").last == "1.050 double: possible→failed")
        #expect(h.reasons["double"]?.last == "disabled")
        h.tap(at: 2)
        #expect(h.lines("double").count == 2, "a disabled recognizer receives no touches")
    }

    @Test("removing a recognizer mid-gesture cancels it")
    func removing() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(name: "press"))
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.55)
        h.root.removeGestureRecognizer(press)
        #expect(h.lines("press").last == "0.550 press: began→cancelled")
        #expect(h.engine.nextDeadline == nil)
    }
}

@Suite("Bad input")
struct BadInputTests {
    @Test("an end for an unknown touch is ignored and reported")
    func unknownTouch() {
        let h = Harness()
        var ignored: [String] = []
        let trace = h.engine.traceHandler
        h.engine.traceHandler = { if case let .inputIgnored(_, r) = $0 { ignored.append(r) }; trace?($0) }
        h.add(TapGestureRecognizer(name: "tap"))
        h.up(7, 500, 500, at: 0)
        h.move(8, 500, 500, at: 0)
        #expect(ignored == ["touch 7 of device 0 ended but is not down", "touch 8 of device 0 moved but is not down"])
        #expect(h.log.isEmpty)
    }

    @Test("a touch id that begins again while down cancels the earlier touch")
    func duplicateID() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "press"))
        h.down(0, 500, 500, at: 0)
        h.advance(to: 0.6)
        h.down(0, 100, 100, at: 0.7)
        #expect(h.lines("press").last == "0.700 press: began→cancelled")
        #expect(h.lines("root") == ["0.000 root: touchesBegan [1]", "0.500 root: touchesCancelled [1]", "0.700 root: touchesBegan [2]"])
        h.finish()
        #expect(h.engine.nextDeadline == nil)
    }

    @Test("time going backwards is handled at the engine's time")
    func timeBackwards() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.down(0, 500, 500, at: 1)
        h.up(0, 500, 500, at: 0.5)
        #expect(h.lines("tap") == ["1.000 tap: possible→ended"])
    }

    @Test("NaN coordinates: a began is ignored, a move keeps the last location")
    func nan() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.down(0, .nan, 500, at: 0)
        h.up(0, 500, 500, at: 0.05)
        #expect(h.log.isEmpty, "nothing happens for a touch that began nowhere")
        h.down(1, 500, 500, at: 1)
        h.move(1, .infinity, 500, at: 1.01)
        h.up(1, 500, 500, at: 1.05)
        #expect(h.lines("tap") == ["1.050 tap: possible→ended"])
    }

    @Test("a trace that ends with touches down leaves every recognizer in possible")
    func endsWithTouchesDown() {
        let h = Harness()
        let recognizers: [GestureRecognizer] = [
            h.add(TapGestureRecognizer(name: "tap")), h.add(TapGestureRecognizer(taps: 2, name: "double")),
            h.add(LongPressGestureRecognizer(name: "press")), h.add(PinchGestureRecognizer(name: "pinch")),
            h.add(PanGestureRecognizer(name: "pan")), h.add(SwipeGestureRecognizer(name: "swipe")),
            h.add(RotationGestureRecognizer(name: "rotate")),
        ]
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        h.frame(0.1, [(0, .moved, 380, 500), (1, .moved, 620, 500)])
        h.finish()
        #expect(recognizers.allSatisfy { $0.state == .possible && h.engine.trackedTouches(of: $0).isEmpty })
        #expect(h.lines("root").last == "0.100 root: touchesCancelled [1,2]")
        #expect(h.engine.nextDeadline == nil)
    }
}
