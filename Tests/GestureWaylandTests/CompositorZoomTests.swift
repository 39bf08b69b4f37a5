import Foundation
import GestureKit
import GestureTestSupport
import Testing

/// A zooming layout (REPLAY.md, our additions to "Scrolling layouts") through sway: control
/// held on the seat's keyboard (`wl_keyboard`) with the wheel, and a touchpad's pinch (pointer
/// gestures), zoom it as the built-in replay of the same recording does, about the same point.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorZoomTests {
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

    /// How far apart the points a touchpad pinch keeps still may be, pt (the scroll view
    /// follows the pinch's location at each change; measured: 0.033 pt through libinput and
    /// the built-in decoder, 0.12 pt along y through sway, at the pinch's first change).
    static let pinchSpread = 0.5

    /// sway's cursor where the built-in decoder starts the pointer: the screen's centre (sway
    /// starts it at the output's top left corner, measured: (100, 100) in the client's window).
    static let cursorAtCentre = "seat seat0 cursor set 500 500"

    /// The smallest change of scale whose fixed point is computed (unitless): the lines' six
    /// decimals make the point imprecise for smaller ones.
    static let minimumStep = 0.01
    /// How far from the pointer the points a wheel's zoom keeps still may be, pt (the lines'
    /// six decimals).
    static let precision = 1e-3

    /// Each `zoom` line's scale and phase.
    static func zooms(_ lines: [Line]) -> [(scale: Double, phase: String)] {
        lines.filter { $0.type == "zoom" }.map { (($0.object["zoomScale"] as? NSNumber)?.doubleValue ?? .nan, $0.phase) }
    }

    /// The point of the view each change of the scale kept still: `(o0 + a) / s0 = (o + a) / s`,
    /// from where the content was when that zoom began (the last `scroll` or `zoom` line before it).
    static func fixedPoints(_ lines: [Line]) -> [Point] {
        var current = (offset: start, scale: 1.0)
        var began: (offset: Point, scale: Double)?
        var points: [Point] = []
        for line in lines where line.type == "scroll" || line.type == "zoom" {
            guard let o = line.object["contentOffset"] as? [NSNumber] else { continue }
            let next = Point(x: o[0].doubleValue, y: o[1].doubleValue)
            guard line.type == "zoom", let s = (line.object["zoomScale"] as? NSNumber)?.doubleValue else {
                current.offset = next
                continue
            }
            let from = began ?? current
            began = line.phase == "rest" ? nil : from
            if line.phase != "rest", abs(s - from.scale) >= minimumStep {
                points.append(Point(x: (from.scale * next.x - s * from.offset.x) / (s - from.scale),
                                    y: (from.scale * next.y - s * from.offset.y) / (s - from.scale)))
            }
            current = (next, s)
        }
        return points
    }

    /// The pointer in the view when the pan first began (its location is in content coordinates).
    static func pointer(_ lines: [Line]) -> Point? {
        guard let at = lines.first(where: { $0.recognizer == "pan" && $0.to == "began" })?.object["location"] as? [NSNumber]
        else { return nil }
        return Point(x: at[0].doubleValue - start.x, y: at[1].doubleValue - start.y)
    }

    static func near(_ a: Point, _ b: Point, _ within: Double) -> Bool { abs(a.x - b.x) <= within && abs(a.y - b.y) <= within }

    @Test("control held on sway's keyboard with the wheel zooms the layout ×1.1 a detent about the pointer, the same scales as the built-in replay; released, the wheel scrolls")
    func controlWheel() throws {
        let trace = Compositor.fixture("synthetic-mouse-logitech-k400-ctrl-wheel-zoom.evemu")
        let session = try Compositor.session(trace: trace, scene: Self.scene, swayConfig: Self.cursorAtCentre)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "control and the wheel through sway")
        // Delivered late (a detent split from its neighbours), sway's zooms are checked against
        // the replay of what it delivered, and the figures below against the built-in replay.
        let (delivered, onTime) = try expectedReading(live: wayland, recording: session.recording, fixture: trace, scene: Self.scene, client: "GestureWayland")
        let builtin = onTime ? delivered : try builtinReplay(trace, scene: Self.scene)
        let expected = [1.1, 1.21, 1.331, 1.21]
        for (name, lines) in onTime ? [("sway", wayland), ("built-in", builtin)] : [("built-in", builtin)] {
            let zooming = Self.zooms(lines).filter { $0.phase == "zooming" }.map(\.scale)
            #expect(zooming.count == expected.count && zip(zooming, expected).allSatisfy { abs($0 - $1) < 1e-6 },
                    "\(name): three detents forward with control, one back: \(zooming)")
            #expect(Self.zooms(lines).filter { $0.phase == "rest" }.count == 2, "\(name): two zooms, each ending once")
            let pointer = try #require(Self.pointer(lines), "\(name): the pan begins")
            let points = Self.fixedPoints(lines)
            #expect(points.count == 4 && points.allSatisfy { Self.near($0, pointer, Self.precision) },
                    "\(name): every detent keeps the content under the pointer \(pointer): \(points)")
            let last = try #require(lines.last { $0.recognizer == "pan" && $0.to == "ended" })
            #expect(last.object["modifierFlags"] == nil && Line.endedTranslations([last], of: "pan") == [30],
                    "\(name): control released, two detents scroll 30 pt: \(last.object)")
        }
        let a = try #require(Self.fixedPoints(wayland).first), b = try #require(Self.fixedPoints(builtin).first)
        FileHandle.standardError.write(Data("control and the wheel: zoomed about \(a) through sway, \(b) built-in\n".utf8))
        #expect(Self.near(a, b, Self.pointerDistance), "about the same point: through sway \(a), built-in \(b)")
    }

    /// How far sway's pointer may be from the built-in decoder's after the recording's
    /// 5-unit move, pt: sway's libinput accelerates it (1.6 pt through libinput, 5 pt built-in).
    static let pointerDistance = 4.0

    @Test("a touchpad pinch through sway's pointer gestures zooms the layout to the built-in replay's scale within 3 %, about one point (the pointer)")
    func touchpadPinch() throws {
        let trace = Compositor.fixture("synthetic-tp-elantech-pinch-out-2f.evemu")
        let session = try Compositor.session(trace: trace, scene: Self.scene, swayConfig: Self.cursorAtCentre)
        defer { session.remove() }
        let wayland = CompositorTests.lines(of: session, "touchpad pinch zoom through sway")
        let builtin = try builtinReplay(trace, scene: Self.scene)
        let a = try #require(Self.zooms(wayland).last, "the pinch zooms through sway: \(Line.recognized(wayland))")
        let b = try #require(Self.zooms(builtin).last)
        #expect(a.phase == "rest" && b.phase == "rest", "each zoom ends: \(a.phase), \(b.phase)")
        #expect(b.scale > 1.5 && abs(a.scale - b.scale) <= 0.03 * b.scale, "final scale: through sway \(a.scale), built-in \(b.scale)")
        for (name, lines) in [("sway", wayland), ("built-in", builtin)] {
            let points = Self.fixedPoints(lines)
            let first = try #require(points.first, "\(name) zooms")
            #expect(points.count > 5 && points.allSatisfy { Self.near($0, first, Self.pinchSpread) },
                    "\(name): one point stays under the fingers: \(points)")
        }
        let pa = try #require(Self.fixedPoints(wayland).first), pb = try #require(Self.fixedPoints(builtin).first)
        FileHandle.standardError.write(Data("touchpad pinch: zoomed about \(pa) through sway, \(pb) built-in\n".utf8))
        #expect(Self.near(pa, pb, 1), "about the same point: through sway \(pa), built-in \(pb)")
    }
}
