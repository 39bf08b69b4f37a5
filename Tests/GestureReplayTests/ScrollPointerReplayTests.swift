import Foundation
import GestureKit
import GestureTraces
import GestureLayout
import GestureReplay
import Testing
import GestureTestSupport

/// REPLAY.md, "Scrolling layouts", pointers: the recorded touchpad scrolls and wheels of
/// Fixtures/ scroll a layout whose pan allows them, as UIScrollView's pan does on iPadOS.
@Suite("Scrolling layouts with a touchpad and a wheel")
struct ScrollPointerReplayTests {
    /// Where the content starts: far from both edges, so every figure below is the content's
    /// own motion, not a bounce.
    static let start = 5000.0

    static let sceneJSON = """
    {
      "views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
      "recognizers": [
        {"id": "tap", "kind": "tap", "view": "root"},
        {"id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1, "allowedScrollTypes": ["continuous", "discrete"]}
      ],
      "layout": { "kind": "flow", "sections": [2000], "itemSize": [120, 90], "minimumLineSpacing": 10,
        "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10], "select": "tap", "scroll": "pan",
        "contentOffset": [0, \(start)] }
    }
    """

    static let touchpadScrolls = ["synthetic-tp-elantech-scroll-down-2f.evemu", "tp-synaptics-scroll-vertical-2f.evemu",
                                  "tp-wacom-intuos5-scroll-2f.evemu", "synthetic-tp-elantech-flick-then-hold-2f.evemu"]
    static let wheels = ["synthetic-mouse-saitek-wheel.evemu", "mouse-logitech-ultrathin-wheel.evemu"]

    typealias ScrollLine = ScrollReplayTests.ScrollLine

    /// One scroll sequence of the pan: its began and ended transitions.
    static func scrolls(_ r: Replayed, kind: String) -> [(began: ReplayRecord.State, ended: ReplayRecord.State)] {
        var result: [(ReplayRecord.State, ReplayRecord.State)] = []
        var began: ReplayRecord.State?
        for s in r.states where s.recognizer == "pan" {
            if s.to == .began { began = s.reason == "\(kind) scroll began" ? s : nil }
            if s.to == .ended, let b = began { result.append((b, s)); began = nil }
        }
        return result
    }

    @Test("a touchpad's two-finger scroll drags the content with its translation, then it decelerates from the velocity at the stop to the projection",
          arguments: touchpadScrolls)
    func touchpadScroll(_ fixture: String) throws {
        let r = try Replayed(fixture, scene: scene(Self.sceneJSON))
        let lines = ScrollReplayTests.scrollLines(r.records)
        let scrolls = Self.scrolls(r, kind: "touchpad")
        #expect(scrolls.count == 1, "\(fixture): one touchpad scroll, got \(scrolls.count)")
        let (began, ended) = try #require(scrolls.first)
        // Dragging: the offset is the start less the scroll's translation, exactly.
        for s in r.states where s.recognizer == "pan" && s.time >= began.time && s.time <= ended.time && s.to != .ended {
            let t = try #require(s.values.translation)
            let line = try #require(lines.last { $0.time <= s.time }, "a scroll line by \(s.time.seconds) s")
            #expect(line.phase == "dragging" && abs(line.offset.y - (Self.start - t.y)) < 1e-6,
                    "\(fixture) at \(s.time.seconds) s: offset \(line.offset.y) for translation \(t.y)")
        }
        // After the stop: frames of its own motion, then rest, once, at the projection.
        let v = -(ended.values.velocityVector?.y ?? 0)
        let releaseOffset = try #require(lines.last { $0.time <= ended.time }).offset.y
        let after = lines.filter { $0.time > ended.time }
        let last = try #require(lines.last)
        #expect(last.phase == "rest" && lines.filter { $0.phase == "rest" }.count == 1, "\(fixture): rests once, at the end")
        #expect(after.allSatisfy { $0.phase == "decelerating" || $0.phase == "rest" },
                "\(fixture): after the stop, only deceleration: \(Set(after.map(\.phase)))")
        if abs(v) >= 10 {
            #expect(after.contains { $0.phase == "decelerating" }, "\(fixture): released at \(v) pt/s, the content moves on")
        }
        if fixture.contains("hold") {
            // The fingers that land again and rest are a touchpad hold (libinput's, 40 ms after
            // they land; without libinput, the decoder's the same): it stops the fling where it is.
            var holds: [Instant] = []
            try TraceReader(path: Fixtures.path(fixture)).run { event in
                if case let .touchpadGesture(g) = event, g.kind == .hold, g.phase == .begin { holds.append(g.time) }
            }
            let holdAt = try #require(holds.first { $0 > ended.time }, "the resting fingers hold")
            #expect(v > 1000, "the flick is fast: \(v) pt/s")
            #expect(last.time == holdAt, "\(fixture): the content stops at \(holdAt.seconds) s, when the fingers rest; stopped at \(last.time.seconds)")
            let projection = ScrollPhysics(decelerationRate: DecelerationRate.normal.rawValue).projection(releaseOffset, velocity: v)
            #expect(projection - last.offset.y > 300, "stopped at \(last.offset.y), far short of the projection \(projection)")
            #expect(r.count("tap", .ended) == 0, "the resting fingers select nothing")
        } else {
            let projection = ScrollPhysics(decelerationRate: DecelerationRate.normal.rawValue).projection(releaseOffset, velocity: v)
            #expect(abs(last.offset.y - projection) <= 1,
                    "\(fixture): released at \(releaseOffset) with \(v) pt/s, rests at \(last.offset.y), projection \(projection)")
        }
    }

    @Test("a wheel moves the content by its detents and stops there: no fling, no bounce", arguments: wheels)
    func wheel(_ fixture: String) throws {
        let r = try Replayed(fixture, scene: scene(Self.sceneJSON))
        let lines = ScrollReplayTests.scrollLines(r.records)
        let scrolls = Self.scrolls(r, kind: "wheel")
        #expect(!scrolls.isEmpty, "\(fixture) turns its wheel")
        for (began, ended) in scrolls {
            let origin = lines.last { $0.time < began.time }?.offset.y ?? Self.start
            let t = try #require(ended.values.translation?.y)
            let rest = try #require(lines.first { $0.time >= ended.time }, "a line when the wheel's scroll ends")
            #expect(rest.phase == "rest" && rest.time == ended.time,
                    "\(fixture): the wheel's scroll ending at \(ended.time.seconds) s leaves the content at rest at once, got \(rest.phase) at \(rest.time.seconds)")
            #expect(rest.offset.y == origin - t, "\(fixture): \(t / 15) detents from \(origin) rest at \(origin - t), got \(rest.offset.y)")
            let during = lines.filter { $0.time >= began.time && $0.time <= ended.time }
            #expect(during.allSatisfy { $0.phase == "dragging" || $0.phase == "rest" }, "\(fixture): a wheel neither decelerates nor bounces")
        }
    }

    @Test("gesturekit replay prints the same lines as the library for the pointer scrolls", arguments: touchpadScrolls + wheels)
    func toolAgrees(_ fixture: String) throws {
        let file = try TempFile(Self.sceneJSON, name: "pointer-scroll.json")
        defer { file.remove() }
        let run = try runTool(["replay", Fixtures.path(fixture), "--scene", file.path, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let library = try Replayed(fixture, scene: scene(Self.sceneJSON)).jsonLines
        #expect(run.out.split(separator: "\n").map(String.init) == library)
        #expect(library.contains { $0.contains("\"type\":\"scroll\"") }, "\(fixture) scrolls")
    }
}
