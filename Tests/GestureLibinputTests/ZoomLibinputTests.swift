import Foundation
import GestureKit
import Testing
import GestureTestSupport

/// A zooming layout (REPLAY.md, our additions to "Scrolling layouts") driven by real libinput
/// under umockdev: control with the wheel, and a touchpad's pinch, zoom it as through the
/// built-in decoder, about the same point.
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct ZoomLibinputTests {
    typealias Line = LibinputRecognitionTests.Line

    static let start = Point(x: 0, y: 5000)
    static let scene = """
    {
      "views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
      "recognizers": [
        {"id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1, "allowedScrollTypes": ["continuous", "discrete"]}
      ],
      "layout": { "kind": "flow", "sections": [2000], "itemSize": [120, 90], "minimumLineSpacing": 10,
        "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10], "scroll": "pan",
        "contentOffset": [\(start.x), \(start.y)], "minimumZoomScale": 0.5, "maximumZoomScale": 3 }
    }
    """

    /// What one backend's replay did to the zoom.
    struct Zoom {
        let lines: [Line]
        /// Each `zoom` line's scale and phase.
        var zooms: [(scale: Double, phase: String)] {
            lines.filter { $0.type == "zoom" }.map { (($0.object["zoomScale"] as? NSNumber)?.doubleValue ?? .nan, $0.object["phase"] as? String ?? "") }
        }
        /// The point of the view each change of the scale kept still: `(o0 + a) / s0 = (o + a) / s`,
        /// from where the content was when that zoom began (the last `scroll` or `zoom` line
        /// before it). Changes within `minimumStep` of that scale are left out: the lines' six
        /// decimals make the point imprecise there.
        var fixedPoints: [Point] {
            var current = (offset: ZoomLibinputTests.start, scale: 1.0)
            var began: (offset: Point, scale: Double)?
            var points: [Point] = []
            for line in lines where line.type == "scroll" || line.type == "zoom" {
                guard let o = line.object["contentOffset"] as? [NSNumber] else { continue }
                let next = Point(x: o[0].doubleValue, y: o[1].doubleValue)
                if line.type == "zoom", let s = (line.object["zoomScale"] as? NSNumber)?.doubleValue {
                    let from = began ?? current
                    let rest = line.object["phase"] as? String == "rest"
                    began = rest ? nil : from
                    if !rest, abs(s - from.scale) >= ZoomLibinputTests.minimumStep {
                        points.append(Point(x: (from.scale * next.x - s * from.offset.x) / (s - from.scale),
                                            y: (from.scale * next.y - s * from.offset.y) / (s - from.scale)))
                    }
                    current = (next, s)
                } else {
                    current.offset = next
                }
            }
            return points
        }
    }

    /// How far apart the points a touchpad pinch keeps still may be, pt (the scroll view
    /// follows the pinch's location at each change; measured: 0.033 pt through both backends).
    static let pinchSpread = 0.1
    /// The smallest change of scale whose fixed point is computed (unitless).
    static let minimumStep = 0.01
    /// How far from the pointer a fixed point computed from the lines' six decimals may be, pt.
    static let precision = 1e-3

    static func read(_ fixture: String, backend: String) throws -> Zoom {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-zoom-layout.json"
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try LibinputRecognitionTests.gesturekit(["replay", Fixtures.path(fixture), "--scene", path, "--json",
                                                           "--backend", backend])
        #expect(run.status == 0, "\(fixture) through \(backend): \(run.err)")
        return Zoom(lines: LibinputRecognitionTests.parse(run.out))
    }

    static func near(_ a: Point, _ b: Point, _ within: Double) -> Bool { abs(a.x - b.x) <= within && abs(a.y - b.y) <= within }

    @Test("control with the wheel through libinput zooms ×1.1 a detent about the pointer, the same scales as the built-in decoder, about a point within 4 pt of its (libinput accelerates the recording's 5-unit move to 1.6 pt)")
    func controlWheel() throws {
        let fixture = "synthetic-mouse-logitech-k400-ctrl-wheel-zoom.evemu"
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        let expected = [1.1, 1.21, 1.331, 1.21]
        for (name, z) in [("libinput", libinput), ("built-in", builtin)] {
            let zooming = z.zooms.filter { $0.phase == "zooming" }.map(\.scale)
            #expect(zooming.count == expected.count && zip(zooming, expected).allSatisfy { abs($0 - $1) < 1e-6 },
                    "\(name): three detents forward with control, one back: \(zooming)")
            #expect(z.zooms.filter { $0.phase == "rest" }.count == 2, "\(name): two zooms, each ending once: \(z.zooms)")
            // The pointer, in the view: the pan's first location (content coordinates) less the start.
            let began = try #require(z.lines.first { $0.recognizer == "pan" && $0.to == "began" })
            let at = try #require(began.object["location"] as? [NSNumber])
            let pointer = Point(x: at[0].doubleValue - Self.start.x, y: at[1].doubleValue - Self.start.y)
            #expect(z.fixedPoints.count == 4 && z.fixedPoints.allSatisfy { Self.near($0, pointer, Self.precision) },
                    "\(name): every detent keeps the content under the pointer \(pointer): \(z.fixedPoints)")
        }
        let a = try #require(libinput.fixedPoints.first), b = try #require(builtin.fixedPoints.first)
        #expect(Self.near(a, b, 4), "about the same point: libinput \(a), built-in \(b)")
    }

    @Test("a touchpad pinch through libinput zooms the layout to the built-in decoder's scale within 3 % (as the pinch recognizer's, PointerAgreementTests), about the same point within 1 pt")
    func touchpadPinch() throws {
        let fixture = "synthetic-tp-elantech-pinch-out-2f.evemu"
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        let a = try #require(libinput.zooms.last, "the pinch zooms through libinput")
        let b = try #require(builtin.zooms.last)
        #expect(a.phase == "rest" && b.phase == "rest", "each zoom ends: \(a.phase), \(b.phase)")
        #expect(b.scale > 1.5 && abs(a.scale - b.scale) <= 0.03 * b.scale, "libinput \(a.scale), built-in \(b.scale)")
        for (name, z) in [("libinput", libinput), ("built-in", builtin)] {
            let first = try #require(z.fixedPoints.first, "\(name) zooms")
            let spread = z.fixedPoints.map { max(abs($0.x - first.x), abs($0.y - first.y)) }.max() ?? 0
            FileHandle.standardError.write(Data("\(name): the pinch's fixed points within \(spread) pt of \(first)\n".utf8))
            #expect(z.fixedPoints.count > 10 && spread < Self.pinchSpread,
                    "\(name): one point stays under the fingers: \(z.fixedPoints)")
        }
        let pa = try #require(libinput.fixedPoints.first), pb = try #require(builtin.fixedPoints.first)
        #expect(Self.near(pa, pb, 1), "about the same point: libinput \(pa), built-in \(pb)")
    }
}
