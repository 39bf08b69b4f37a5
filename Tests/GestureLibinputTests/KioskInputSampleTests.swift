import Foundation
import GestureInput
import GestureKit
import GestureLibinput
import GestureMockDevice
import GestureTraces
import Testing
import GestureTestSupport

/// The kiosk article's input sample (KioskInputSample.swift, word for word in the article:
/// DocumentationTests), without devices: where its mapping puts touches. (`runKiosk` needs a
/// seat; it is compiled, not run.)
@Suite("Kiosk input sample")
struct KioskInputSampleTests {
    @Test("the panel mounted upside down: its middle is the screen's middle, its first corner the screen's far corner")
    func mapping() {
        let listener = kioskListener()
        func screenPoint(_ x: Double, _ y: Double) -> Point {
            listener.mapping.screenPoint(normalized: TouchMapping.apply(listener.mapping.matrix(), Point(x: x, y: y)),
                                         screen: listener.screenSize)
        }
        let middle = screenPoint(0.5, 0.5)
        #expect(abs(middle.x - 960) < 1e-6 && abs(middle.y - 540) < 1e-6, "the panel's middle should be the screen's, got \(middle)")
        let corner = screenPoint(0.01, 0.01)
        #expect(corner.x > 1900 && corner.y > 1040, "the panel's top-left should land at the screen's bottom-right, got \(corner)")
        #expect(listener.access == .seat && listener.grab)
    }

}

/// What makes the sample's edge margin physical: libinput's context announces a touchscreen
/// of known size with the points a millimetre of it covers on the screen, through the
/// mapping (real libinput in gesturekit-libinput-probe, on a mock device under umockdev-run).
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct KioskTouchscreenScaleTests {
    @Test("a Dell Canvas 27 (597 × 336 mm) turned upside down on a 1920 × 1080 screen is announced at about 3.2 points a millimetre, the mapping's figure")
    func announcedScale() throws {
        let (description, events) = Fixtures.recording("synthetic-ts-dell-canvas27-edge-swipe-left-1f.evemu")
        let run = try ProbeHarness.run([ProbeHarness.replay(device: MockDevice(description), events: events)],
                                       duration: 0.5, screen: "1920x1080", options: ["--rotate", "180"])
        let added = try #require(run.lines.first { $0["type"] as? String == "device-added" },
                                 "the probe announces the touchscreen; stderr: \(run.result.stderr)")
        let size = try #require((added["size"] as? [NSNumber])?.map(\.doubleValue), "libinput knows the panel's size: \(added)")
        let announced = try #require((added["pointsPerMillimetre"] as? NSNumber)?.doubleValue,
                                     "the touchscreen is announced with its points per millimetre: \(added)")
        let expected = try #require(TouchMapping(rotation: 180).pointsPerMillimetre(
            deviceSize: Size(width: size[0], height: size[1]), screen: Size(width: 1920, height: 1080)))
        // The probe prints numbers to six decimals (its JSON lines): the size and the scale
        // agree to that.
        #expect(abs(announced - expected) < 1e-5, "expected \(expected) points a millimetre, as the mapping computes it; got \(announced)")
        #expect(abs(announced - (1920 / size[0] + 1080 / size[1]) / 2) < 1e-5, "a panel turned by 180° keeps its width across")
    }
}
