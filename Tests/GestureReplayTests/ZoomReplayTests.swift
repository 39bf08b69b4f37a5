import Foundation
import GestureKit
import GestureLayout
import GestureReplay
import Testing

/// REPLAY.md, our additions to "Scrolling layouts": a layout with a zoom range
/// (`minimumZoomScale`, `maximumZoomScale`) zooms with a wheel turned with control held (×1.1
/// a detent about the pointer) and with a touchpad's pinch, and prints `zoom` lines.
@Suite("Zooming layouts: control with the wheel, a touchpad's pinch")
struct ZoomReplayTests {
    /// Where the content starts: far from the top and bottom.
    static let start = Point(x: 0, y: 5000)
    static let controlWheel = "synthetic-mouse-logitech-k400-ctrl-wheel-zoom.evemu"
    static let touchpadPinch = "synthetic-tp-elantech-pinch-out-2f.evemu"

    static func sceneJSON(minimum: Double = 0.5, maximum: Double = 3) -> String {
        """
        {
          "views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
          "recognizers": [
            {"id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1, "allowedScrollTypes": ["continuous", "discrete"]}
          ],
          "layout": { "kind": "flow", "sections": [2000], "itemSize": [120, 90], "minimumLineSpacing": 10,
            "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10], "scroll": "pan",
            "contentOffset": [\(start.x), \(start.y)], "minimumZoomScale": \(minimum), "maximumZoomScale": \(maximum) }
        }
        """
    }

    struct ZoomLine: Equatable {
        let time: Double, scale: Double, offset: Point, phase: ZoomPhase
    }

    static func zoomLines(_ records: [ReplayRecord]) -> [ZoomLine] {
        records.compactMap {
            if case let .zoom(t, s, o, p) = $0 { ZoomLine(time: t.seconds, scale: s, offset: o, phase: p) } else { nil }
        }
    }

    /// The point of the view (from its top left corner) that a zoom from `(o1, s1)` to
    /// `(o2, s2)` keeps still: the content point under it is the same before and after,
    /// `(o1 + a) / s1 = (o2 + a) / s2`.
    static func fixedPoint(from o1: Point, _ s1: Double, to o2: Point, _ s2: Double) -> Point {
        Point(x: (s1 * o2.x - s2 * o1.x) / (s2 - s1), y: (s1 * o2.y - s2 * o1.y) / (s2 - s1))
    }

    /// The point of the view each change of the scale keeps still, from where the content
    /// was (the last `scroll` or `zoom` line before it: a zoom may stop a bounce).
    static func fixedPoints(_ records: [ReplayRecord]) -> [Point] {
        var current = (offset: start, scale: 1.0)
        var points: [Point] = []
        for record in records {
            switch record {
            case let .scroll(_, o, _, _): current.offset = o
            case let .zoom(_, s, o, _):
                if s != current.scale { points.append(fixedPoint(from: current.offset, current.scale, to: o, s)) }
                current = (o, s)
            default: break
            }
        }
        return points
    }

    @Test("a wheel turned with control held zooms the layout ×1.1 a detent forward and ÷1.1 a detent back, about the pointer; without control it scrolls")
    func controlWheelZooms() throws {
        let r = try Replayed(Self.controlWheel, scene: scene(Self.sceneJSON()))
        let zooms = Self.zoomLines(r.records)
        let zooming = zooms.filter { $0.phase == .zooming }.map(\.scale)
        let expected = [1.1, 1.21, 1.331, 1.21]
        #expect(zooming.count == expected.count && zip(zooming, expected).allSatisfy { abs($0 - $1) < 1e-9 },
                "three detents forward, then one back: \(zooming)")
        #expect(zooms.filter { $0.phase == .rest }.map { ($0.scale * 1000).rounded() / 1000 } == [1.331, 1.21],
                "each zoom ends once, at its scale: \(zooms)")
        // The pointer: where the pan began, in the view (its location is in the content's coordinates).
        let began = try #require(r.states.first { $0.recognizer == "pan" && $0.to == .began })
        #expect(began.modifierFlags == .control, "the pan begins with control held")
        let pointer = began.location - Self.start
        let points = Self.fixedPoints(r.records)
        #expect(points.count == 4 && points.allSatisfy { abs($0.x - pointer.x) < 1e-6 && abs($0.y - pointer.y) < 1e-6 },
                "each detent keeps the content under the pointer at \(pointer): \(points)")
        // The two forward detents after control is released scroll 30 pt (no zoom line).
        let last = try #require(r.states.last { $0.recognizer == "pan" && $0.to == .ended })
        #expect(last.modifierFlags.isEmpty && last.values.translation == Point(x: 0, y: 30), "then a plain scroll: \(last)")
        #expect(try #require(zooms.last).time < last.time.seconds, "no zoom after control is released")
    }

    @Test("a touchpad's pinch zooms the layout to the pinch's scale (2 for fingers spread to twice their distance), keeping the content under the pointer")
    func touchpadPinchZooms() throws {
        let r = try Replayed(Self.touchpadPinch, scene: scene(Self.sceneJSON()))
        let zooms = Self.zoomLines(r.records)
        let rest = try #require(zooms.last, "the pinch zooms")
        #expect(rest.phase == .rest && zooms.filter { $0.phase == .rest }.count == 1, "one zoom, ending once: \(zooms.map(\.phase))")
        // The same recording's pinch through a plain pinch recognizer (the default scene).
        let pinch = try #require(Replayed(Self.touchpadPinch).last("pinch", .ended)?.values.scale)
        #expect(abs(rest.scale - pinch) < 1e-9, "the zoom's scale is the pinch's, \(pinch): got \(rest.scale)")
        #expect(!zooms.contains { $0.phase == .bouncing }, "within the range 0.5…3 nothing bounces")
        // Every step keeps the same point of the view still: the pinch's, at the pointer.
        let location = try #require(r.records.compactMap { if case let .state(s) = $0 { s } else { nil } }.first).location - Self.start
        let points = Self.fixedPoints(r.records)
        #expect(points.count > 10 && points.allSatisfy { abs($0.x - location.x) < 1e-6 && abs($0.y - location.y) < 1e-6 },
                "the content under the pointer at \(location) stays there: \(points)")
        #expect(!r.states.contains { $0.recognizer != "pan" }, "the layout's own pinch prints no state line: \(r.states.map(\.recognizer))")
    }

    @Test("a touchpad's pinch past the largest scale stretches it (rubber band), then the scale springs back to it: bouncing, then rest")
    func pinchPastTheRangeBounces() throws {
        let r = try Replayed(Self.touchpadPinch, scene: scene(Self.sceneJSON(maximum: 1.5)))
        let zooms = Self.zoomLines(r.records)
        let top = try #require(zooms.map(\.scale).max())
        #expect(top > 1.5 && top < 2, "the rubber band lets the scale past 1.5, less than the pinch's 2: \(top)")
        var phases: [ZoomPhase] = []
        for z in zooms where phases.last != z.phase { phases.append(z.phase) }
        #expect(phases == [.zooming, .bouncing, .rest], "\(phases)")
        #expect(abs(try #require(zooms.last).scale - 1.5) < 1e-6, "at rest at the largest scale: \(zooms.last!)")
    }

    @Test("a layout without a zoom range prints no zoom line: control with the wheel scrolls it, as before")
    func noRangeNoZoom() throws {
        let json = Self.sceneJSON().replacingOccurrences(of: #", "minimumZoomScale": 0.5, "maximumZoomScale": 3.0"#, with: "")
        #expect(!json.contains("ZoomScale"), "the scene has no zoom keys: \(json)")
        let r = try Replayed(Self.controlWheel, scene: scene(json))
        #expect(Self.zoomLines(r.records).isEmpty, "no zoom")
        let first = try #require(r.states.first { $0.recognizer == "pan" && $0.to == .ended })
        #expect(first.values.translation == Point(x: 0, y: 45), "three detents with control scroll 45 pt: \(first)")
    }

    @Test("the zoom keys are checked: where and what", arguments: [
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "scroll": "pan", "minimumZoomScale": 0}"#,
         "layout.minimumZoomScale: expected a scale above 0 and at most 1 (the layout starts unscaled), found 0"),
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "scroll": "pan", "minimumZoomScale": 2}"#,
         "layout.minimumZoomScale: expected a scale above 0 and at most 1 (the layout starts unscaled), found 2"),
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "scroll": "pan", "maximumZoomScale": 0.5}"#,
         "layout.maximumZoomScale: expected a scale from 1 (the layout starts unscaled) to 1000, found 0.5"),
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "scroll": "pan", "maximumZoomScale": "3"}"#,
         "layout.maximumZoomScale: expected a scale from 1 (the layout starts unscaled) to 1000, found a string"),
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "maximumZoomScale": 3}"#,
         #"layout.maximumZoomScale: zooming needs a scrolling layout ("scroll": a pan's id)"#),
        (#"{"kind": "flow", "sections": [3], "itemSize": [10, 10], "minimumZoomScale": 0.5}"#,
         #"layout.minimumZoomScale: zooming needs a scrolling layout ("scroll": a pan's id)"#),
    ])
    func sceneErrors(_ layout: String, _ message: String) throws {
        let json = #"{"recognizers": [{"id": "pan", "kind": "pan", "view": "root"}], "layout": "# + layout + "}"
        do {
            _ = try scene(json)
            Issue.record("expected \(layout) to be refused")
        } catch let error as SceneError {
            #expect(error.description == message)
        }
    }

    @Test("the zoom keys reach the layout's collection view; a range of one scale (the default) does not zoom")
    func keysReachTheScrollView() throws {
        let live = try LiveScene(scene(Self.sceneJSON(minimum: 0.25, maximum: 4)))
        let view = try #require(live.scrollView)
        #expect(view.minimumZoomScale == 0.25 && view.maximumZoomScale == 4 && view.pinchGestureRecognizer != nil)
        let plain = try LiveScene(scene(Self.sceneJSON(minimum: 1, maximum: 1)))
        #expect(plain.scrollView?.pinchGestureRecognizer == nil, "min = max: no zooming pinch")
    }
}
