import Foundation
import Testing
import GestureKit
import GestureTestSupport

@Suite("Pinch and rotation end when the last finger lifts")
struct MultiFingerTests {
    @Test("a pinch carries on through a lifted finger, continuous in scale, and ends at the last lift")
    func pinchCarriesOn() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        var scales: [Double] = []
        pinch.addTarget { scales.append($0.scale) }
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        h.move(1, 700, 500, at: 0.05)           // span 100 → 150: began
        h.move(1, 800, 500, at: 0.10)           // span 200: scale 4/3
        #expect(h.lines("pinch") == ["0.050 pinch: possible→began", "0.100 pinch: began→changed"])
        h.up(1, 800, 500, at: 0.15)
        #expect(pinch.state == .changed, "with one finger left the pinch stays changed, got \(pinch.state)")
        h.down(2, 800, 500, at: 0.20)           // a finger put back where the other left
        h.move(2, 950, 500, at: 0.25)           // span 200 → 275
        #expect(abs(pinch.scale - 4.0 / 3.0 * 275 / 200) < 1e-9,
                "the scale carries on from 4/3, not from 1: got \(pinch.scale)")
        h.frame(0.3, [(0, .ended, 400, 500), (2, .ended, 950, 500)])
        #expect(h.lines("pinch").last == "0.300 pinch: changed→ended")
        #expect(h.lines("pinch").filter { $0.hasSuffix("→ended") }.count == 1, "the pinch ends once, at the last lift")
        #expect(zip(scales, scales.dropFirst()).allSatisfy { abs($1 - $0) < 0.5 }, "no jump in scale: \(scales)")
    }

    @Test("a rotation carries on through a lifted finger, continuous in angle, and ends at the last lift")
    func rotationCarriesOn() {
        let h = Harness()
        let rotation = h.add(RotationGestureRecognizer(name: "rotate"))
        h.frame(0, [(0, .began, 400, 500), (1, .began, 600, 500)])
        h.move(1, 600, 560, at: 0.05)           // 0.29 rad > 0.2: began, rotation 0.29 (from the initial line)
        let began = atan(60.0 / 200.0)
        #expect(abs(rotation.rotation - began) < 1e-9, "the turn that began the rotation counts: got \(rotation.rotation)")
        h.up(1, 600, 560, at: 0.10)
        #expect(rotation.state == .began, "with one finger left the rotation stays, got \(rotation.state)")
        h.down(2, 400, 700, at: 0.15)           // the angle is measured afresh from here
        #expect(abs(rotation.rotation - began) < 1e-9, "putting a finger back does not turn the rotation")
        h.move(2, 300, 700, at: 0.20)           // turned by atan2(200, -100) - π/2
        let turned = began + atan2(200.0, -100.0) - Double.pi / 2
        #expect(abs(rotation.rotation - turned) < 1e-9, "the rotation carries on: got \(rotation.rotation), expected \(turned)")
        h.frame(0.25, [(0, .ended, 400, 500), (2, .ended, 300, 700)])
        #expect(h.lines("rotate") == ["0.050 rotate: possible→began", "0.200 rotate: began→changed", "0.250 rotate: changed→ended"])
    }
}

@Suite struct MultiFingerPanTests {
    @Test("a two-finger pan begins only when both fingers have moved together past the threshold, counting from where both were down")
    func twoFingerPanBegins() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(minimumTouches: 2, name: "pan2"))
        h.down(0, 300, 500, at: 0)
        h.move(0, 340, 500, at: 0.01)          // 40 pt alone: does not count
        h.down(1, 500, 500, at: 0.02)
        h.frame(0.03, [(0, .moved, 345, 500), (1, .moved, 505, 500)])
        #expect(pan.state == .possible, "5 pt together is under the 10 pt threshold")
        h.frame(0.04, [(0, .moved, 352, 500), (1, .moved, 512, 500)])
        #expect(h.lines("pan2") == ["0.040 pan2: possible→began"])
        #expect(pan.translation == Point(x: 12, y: 0), "12 pt since both were down, not 52: got \(pan.translation)")
    }

    @Test("a two-finger pan changes only while two fingers are down and ends when the last one lifts")
    func twoFingerPanEndsAtLastLift() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(minimumTouches: 2, name: "pan2"))
        h.frame(0, [(0, .began, 300, 500), (1, .began, 500, 500)])
        h.frame(0.01, [(0, .moved, 320, 500), (1, .moved, 520, 500)])
        h.up(1, 520, 500, at: 0.02)
        #expect(pan.state == .began, "one finger lifted: the pan goes on, got \(pan.state)")
        h.move(0, 400, 500, at: 0.03)
        #expect(h.lines("pan2") == ["0.010 pan2: possible→began"], "one finger alone does not change it, got \(h.lines("pan2"))")
        h.up(0, 400, 500, at: 0.04)
        #expect(h.lines("pan2").last == "0.040 pan2: began→ended", "it ends at the last lift")
    }
}

@Suite struct ExclusiveTouchTypeTests {
    @Test("a recognizer tracking a finger ignores a click that lands meanwhile (requiresExclusiveTouchType, on by default), and counts it when that is off")
    func exclusiveTouchType() {
        for exclusive in [true, false] {
            let h = Harness()
            let pan = h.add(PanGestureRecognizer(name: "pan"))
            pan.requiresExclusiveTouchType = exclusive
            var counts: [Int] = []
            pan.addTarget { counts.append($0.numberOfTouches) }
            h.down(0, 500, 500, at: 0)
            h.pointer(600, 600, at: 0.005)
            h.button(true, 600, 600, at: 0.01)
            h.move(0, 530, 500, at: 0.02)
            h.move(0, 540, 500, at: 0.03)
            #expect(pan.state == .changed)
            #expect(counts.last == (exclusive ? 1 : 2),
                    "exclusive \(exclusive): expected the pan to count \(exclusive ? "only the finger" : "the finger and the click"), got \(counts)")
            h.button(false, 600, 600, at: 0.04)
            h.up(0, 540, 500, at: 0.05)
        }
    }
}
