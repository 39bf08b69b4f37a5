import Foundation
import GestureKit
import GestureMockDevice
import GestureTraces
import Testing
import GestureTestSupport

/// Rotated and calibrated touchscreens read by real libinput (under umockdev, in
/// `gesturekit listen`) and by the built-in decoder: the same tap lands at the same point.
///
/// Tolerance: 2 device units. libinput normalizes by the axis range + 1 and the decoder by
/// the range, so the two differ by up to one unit at the far edge of an axis; the Wacom's
/// units are 0.36 pt across and 0.64 pt down on the 1000-pt screen.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct KioskLibinputTests {
    static let scene = #"{"screen": [1000, 1000], "recognizers": [{"id": "tap", "kind": "tap", "view": "root"}]}"#
    /// 2 device units of the Wacom ISDv4 E6 (0..2776 × 0..1569) on the 1000-pt screen, in points.
    static let tolerance = Point(x: 2 * 1000 / 2776.0, y: 2 * 1000 / 1569.0)

    /// Where the tap recognizer recognized, through `backend`.
    static func tapLocation(_ fixture: String, backend: String, _ extra: [String]) throws -> Point? {
        let sceneFile = try LibinputRecognitionTests.sceneFile(scene)
        defer { try? FileManager.default.removeItem(atPath: sceneFile) }
        let run = try LibinputRecognitionTests.gesturekit(
            ["replay", Fixtures.path(fixture), "--json", "--scene", sceneFile, "--backend", backend] + extra)
        #expect(run.status == 0, "expected the \(backend) replay to succeed; stderr: \(run.err)")
        let ended = LibinputRecognitionTests.parse(run.out).first { $0.recognizer == "tap" && $0.to == "ended" }
        guard let location = ended?.object["location"] as? [NSNumber], location.count == 2 else { return nil }
        return Point(x: location[0].doubleValue, y: location[1].doubleValue)
    }

    static func near(_ a: Point?, _ b: Point) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance.x && abs(a.y - b.y) <= tolerance.y
    }

    @Test("a panel mounted rotated puts the tap where the person touched it, through libinput and the built-in decoder alike",
          arguments: [0, 90, 180, 270])
    func rotated(_ degrees: Int) throws {
        let fixture = "synthetic-ts-wacom-tap-rotated-\(degrees)-1f.evemu"
        let touched = Point(x: 250, y: 300) // 25 % across, 30 % down (scripts/make-synthetic-kiosk.py)
        let libinput = try Self.tapLocation(fixture, backend: "libinput", ["--rotate", String(degrees)])
        let builtin = try Self.tapLocation(fixture, backend: "builtin", ["--rotate", String(degrees)])
        #expect(Self.near(libinput, touched), "expected libinput's tap at \(touched) ± 2 units, got \(String(describing: libinput))")
        #expect(Self.near(builtin, touched), "expected the built-in decoder's tap at \(touched) ± 2 units, got \(String(describing: builtin))")
        if degrees != 0 {
            let unrotated = try Self.tapLocation(fixture, backend: "builtin", [])
            #expect(!Self.near(unrotated, touched), "without --rotate the tap should land elsewhere, got \(String(describing: unrotated))")
        }
    }

    @Test("a calibration matrix moves the tap as libinput says, and the built-in decoder agrees")
    func calibrated() throws {
        let fixture = "synthetic-ts-wacom-tap-rotated-0-1f.evemu"
        let matrix = "1.1 0 -0.05 0 0.9 0.05"
        // (1.1 × 0.25 − 0.05, 0.9 × 0.3 + 0.05) of the screen.
        let expected = Point(x: 225, y: 320)
        let libinput = try Self.tapLocation(fixture, backend: "libinput", ["--calibration", matrix])
        let builtin = try Self.tapLocation(fixture, backend: "builtin", ["--calibration", matrix])
        #expect(Self.near(libinput, expected), "expected libinput's tap at \(expected), got \(String(describing: libinput))")
        #expect(Self.near(builtin, expected), "expected the built-in decoder's tap at \(expected), got \(String(describing: builtin))")
    }

    @Test("a region puts the panel on its part of the screen, rotated too, through both")
    func region() throws {
        let fixture = "synthetic-ts-wacom-tap-rotated-90-1f.evemu"
        // The right half of the screen: 500 + 0.25 × 500, 0.3 × 1000.
        let expected = Point(x: 625, y: 300)
        let args = ["--rotate", "90", "--region", "500x1000+500+0"]
        let libinput = try Self.tapLocation(fixture, backend: "libinput", args)
        let builtin = try Self.tapLocation(fixture, backend: "builtin", args)
        let tolerance = Point(x: Self.tolerance.x / 2, y: Self.tolerance.y)
        for (name, p) in [("libinput", libinput), ("built-in", builtin)] {
            let ok = p.map { abs($0.x - expected.x) <= tolerance.x && abs($0.y - expected.y) <= tolerance.y } ?? false
            #expect(ok, "expected \(name)'s tap at \(expected), got \(String(describing: p))")
        }
    }
}
