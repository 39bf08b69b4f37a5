import Foundation
import Testing
@testable import GestureKit

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
        h.move(1, 600, 560, at: 0.05)           // 0.29 rad > 0.2: began, rotation 0
        h.up(1, 600, 560, at: 0.10)
        #expect(rotation.state == .began, "with one finger left the rotation stays, got \(rotation.state)")
        h.down(2, 400, 700, at: 0.15)           // the angle is measured afresh from here
        #expect(rotation.rotation == 0, "putting a finger back does not turn the rotation")
        h.move(2, 300, 700, at: 0.20)           // turned by atan2(200, -100) - π/2
        let turned = atan2(200.0, -100.0) - Double.pi / 2
        #expect(abs(rotation.rotation - turned) < 1e-9, "the rotation carries on: got \(rotation.rotation), expected \(turned)")
        h.frame(0.25, [(0, .ended, 400, 500), (2, .ended, 300, 700)])
        #expect(h.lines("rotate") == ["0.050 rotate: possible→began", "0.200 rotate: began→changed", "0.250 rotate: changed→ended"])
    }
}
