import Foundation
import GestureFormat
import GestureKit
import GesturePicture
import GestureReplay
import Testing
import GestureTestSupport

/// REPLAY.md, "Scrolling layouts": the scene layout's `scroll` pan scrolls it as UIScrollView's
/// does, on the replay's virtual clock.
@Suite("Scrolling layouts")
struct ScrollReplayTests {
    static func scrollScene(extra: String = "", sections: Int = 200) -> String {
        """
        {
          "views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
          "recognizers": [
            {"id": "tap", "kind": "tap", "view": "root"},
            {"id": "press", "kind": "longPress", "view": "root"},
            {"id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1}
          ],
          "layout": { "kind": "flow", "sections": [\(sections)], "itemSize": [120, 90], "minimumLineSpacing": 10,
            "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10],
            "select": "tap", "reorder": "press", "scroll": "pan"\(extra) }
        }
        """
    }

    typealias ScrollLine = (time: Instant, offset: Point, velocity: Point, phase: String)

    static func scrollLines(_ records: [ReplayRecord]) -> [ScrollLine] {
        records.compactMap {
            if case let .scroll(t, o, v, p) = $0 { (t, o, v, p.rawValue) } else { nil }
        }
    }

    /// The one-finger vertical drags among the fixtures (the Dell Canvas' edge swipes, which
    /// end slowing down: the content moves on a little, or bounces at the top).
    static let verticalDrags = ["synthetic-ts-dell-canvas27-edge-swipe-top-1f.evemu",
                                "synthetic-ts-dell-canvas27-edge-swipe-bottom-1f.evemu"]

    @Test("a recorded drag scrolls: offset = −(translation − translation at began) while dragging, then it moves on and rests at the projection or the edge, once",
          arguments: verticalDrags, [0.998, 0.99])
    func recordedFling(fixture: String, rate: Double) throws {
        let r = try Replayed(fixture, scene: scene(Self.scrollScene(extra: ", \"decelerationRate\": \(rate)")))
        let lines = Self.scrollLines(r.records)
        let ended = try #require(r.last("pan", .ended), "the pan ends")
        let maxY = try LiveScene(scene(Self.scrollScene())).layout!.contentSize.height - 1000
        // Dragging: in range, the offset is exactly the translation since began reversed (the
        // drag began at 0; the translation at began, the threshold's movement, does not jump it).
        let atBegan = try #require(r.states.first { $0.recognizer == "pan" && $0.to == .began }?.values.translation)
        for s in r.states where s.recognizer == "pan" && (s.to == .changed || s.to == .ended) {
            let t = try #require(s.values.translation).y - atBegan.y
            let line = lines.last { $0.time <= s.time }
            if -t >= 0, -t <= maxY, let line { #expect(abs(line.offset.y + t) < 1e-9, "offset \(line.offset.y) for translation \(t) since began") }
        }
        #expect(lines.filter { $0.phase == "rest" }.count == 1, "rest once")
        let last = try #require(lines.last)
        #expect(last.phase == "rest")
        #expect(lines.dropLast().allSatisfy { $0.phase != "rest" })
        // After the release: frames on the 60 Hz grid, no dragging.
        let after = lines.filter { $0.time > ended.time }
        #expect(after.allSatisfy { $0.phase != "dragging" })
        #expect(after.allSatisfy { l in
            let k = (l.time.nanoseconds * 60 + 500_000_000) / 1_000_000_000
            return l.time.nanoseconds == k * 1_000_000_000 / 60
        }, "frames at k/60 s")
        #expect(last.time > (r.records.filter { if case .touches = $0 { true } else { false } }.last?.time ?? .zero),
                "the animation continues after the trace's last event")
        // Rest: at the projection from the release, or at an edge.
        let releaseOffset = try #require(lines.last { $0.time <= ended.time }).offset.y
        let v = -(ended.values.velocityVector?.y ?? 0)
        let projection = releaseOffset + v / 1000 * rate / (1 - rate)
        let atEdge = last.offset.y == 0 || last.offset.y == maxY
        #expect(atEdge || abs(last.offset.y - projection) <= 1,
                "rests at \(last.offset.y): projection \(projection) or an edge")
        if releaseOffset < 0 {
            #expect(after.contains { $0.phase == "bouncing" } && last.offset.y == 0, "released past the top: bounces back to it")
        }
    }

    @Test("gesturekit replay prints scroll lines with exactly the contract's fields")
    func toolPrintsScrollLines() throws {
        let sceneFile = try TempFile(Self.scrollScene(), name: "scroll.json")
        defer { sceneFile.remove() }
        let result = try runTool(["replay", Fixtures.path(Self.verticalDrags[1]), "--scene", sceneFile.path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").filter { $0.contains("\"type\":\"scroll\"") }
        #expect(lines.count > 10)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["time", "type", "contentOffset", "velocity", "phase"], "\(line)")
            #expect(["dragging", "decelerating", "bouncing", "rest"].contains(object["phase"] as? String ?? ""))
        }
        #expect(lines.last?.contains("\"phase\":\"rest\"") == true)
    }

    @Test("a horizontal swipe on a vertical list does not scroll it")
    func horizontalSwipeDoesNotScroll() throws {
        let r = try Replayed("ts-pixel-tablet-nvt-swipe-1f.evemu", scene: scene(Self.scrollScene()))
        #expect(Self.scrollLines(r.records).isEmpty)
        #expect(r.count("pan", .failed) == 1)
    }

    @Test("a long press still picks up and moves an item while one-finger scrolling is on")
    func longPressReorders() throws {
        let r = try Replayed("synthetic-ts-wacom-long-press-drag-1f.evemu", scene: scene(Self.scrollScene()))
        #expect(r.records.contains { if case .move = $0 { true } else { false } })
        #expect(Self.scrollLines(r.records).isEmpty, "the press won: nothing scrolled")
    }

    /// A fling (finger up the screen, 2000 pt/s for 0.2 s), then a tap at `tapAt`.
    static func flingThenTap(tapAt: Double) throws -> [ReplayRecord] {
        try flingThenTapSession(tapAt: tapAt).records
    }

    static func flingThenTapSession(tapAt: Double) throws -> (records: [ReplayRecord], live: LiveScene) {
        var records: [ReplayRecord] = []
        let session = try ReplaySession(scene: scene(scrollScene())) { records.append($0) }
        func frame(_ t: Double, _ id: Int, _ phase: TouchPhase, _ y: Double) {
            session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), device: InputDeviceID(0),
                                           changes: [TouchChange(sourceID: id, phase: phase, location: Point(x: 500, y: y))])))
        }
        frame(0, 1, .began, 800)
        for k in 1...20 { frame(Double(k) * 0.01, 1, .moved, 800 - 20 * Double(k)) }
        frame(0.21, 1, .ended, 380)
        frame(tapAt, 2, .began, 500)
        frame(tapAt + 0.05, 2, .ended, 500)
        session.finish()
        return (records, session.live)
    }

    @Test("a tap on moving content stops it where it is and selects nothing")
    func tapOnMovingContent() throws {
        let records = try Self.flingThenTap(tapAt: 0.6)
        let lines = Self.scrollLines(records)
        let rest = try #require(lines.first { $0.phase == "rest" })
        #expect(rest.time == Instant(seconds: 0.6), "stopped at the touch-down")
        #expect(lines.filter { $0.phase == "rest" }.count == 1)
        #expect(lines.last!.time == rest.time, "nothing moves after it")
        let before = try #require(lines.last { $0.time < Instant(seconds: 0.6) })
        #expect(before.phase == "decelerating")
        #expect(rest.offset == before.offset, "stopped where it was")
        #expect(!records.contains { if case .select = $0 { true } else { false } }, "no selection")
        #expect(records.contains { if case let .state(s) = $0 { s.recognizer == "tap" && s.to == .failed } else { false } })
    }

    @Test("a tap on still content selects")
    func tapOnStillContent() throws {
        let records = try Self.flingThenTap(tapAt: 8)
        let lines = Self.scrollLines(records)
        let rest = try #require(lines.last)
        #expect(rest.phase == "rest" && rest.time < Instant(seconds: 8))
        #expect(records.contains { if case .select = $0 { true } else { false } })
    }

    @Test("frameRate sets the animation's grid; bounces false stops at the edge")
    func sceneKeys() throws {
        let r = try Replayed(Self.verticalDrags[0], scene: scene(Self.scrollScene(extra: ", \"frameRate\": 30, \"bounces\": false")))
        let lines = Self.scrollLines(r.records)
        #expect(lines.allSatisfy { $0.offset.y >= 0 }, "never past the top")
        #expect(lines.last?.phase == "rest")
        let r2 = try Replayed(Self.verticalDrags[1], scene: scene(Self.scrollScene(extra: ", \"frameRate\": 30")))
        let ended = try #require(r2.last("pan", .ended))
        let frames = Self.scrollLines(r2.records).filter { $0.time > ended.time }
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { l in
            let k = (l.time.nanoseconds * 30 + 500_000_000) / 1_000_000_000
            return l.time.nanoseconds == k * 1_000_000_000 / 30
        }, "frames at k/30 s")
    }

    @Test("scroll must name a pan; the numbers are checked", arguments: [
        (", \"scroll\": \"tap\"", "layout.scroll"),
        (", \"decelerationRate\": 1.5", "layout.decelerationRate"),
        (", \"frameRate\": 0", "layout.frameRate"),
        (", \"bounces\": 1", "layout.bounces"),
    ])
    func sceneErrors(extra: String, path: String) throws {
        let json = Self.scrollScene().replacingOccurrences(of: ", \"scroll\": \"pan\"", with: extra)
        #expect { try scene(json) } throws: { error in "\(error)".contains(path) }
    }

    @Test("the picture has a scroll phase lane and the offset plotted against time, coloured by phase")
    func picture() throws {
        let r = try Replayed(Self.verticalDrags[0], scene: scene(Self.scrollScene()))
        var picture = ReplayPicture(scene: try scene(Self.scrollScene()))
        for record in r.records { picture.observe(record) }
        let svg = picture.svg(title: "scroll")
        #expect(svg.contains("<g id=\"scroll\">") && svg.contains(">scroll phase</text>") && svg.contains(">content offset</text>"))
        #expect(svg.components(separatedBy: "<title>rest at").count - 1 == 1, "one rest marker")
        #expect(svg.contains("<title>dragging from") && svg.contains("<title>bouncing from"), "a band for each phase the content went through")
        #expect(svg.contains("stroke=\"#ff7f0e\" stroke-width=\"2\""), "the bounce is drawn in its colour on the plot")
        var plain = ReplayPicture(scene: .defaultScene())
        for record in try Replayed(Self.verticalDrags[0]).records { plain.observe(record) }
        #expect(!plain.svg(title: "plain").contains("scroll phase"), "no scroll lane without a scrolling layout")
    }

    @Test("pagingEnabled: a release comes to rest on a multiple of the view's height", arguments: verticalDrags)
    func paging(fixture: String) throws {
        let r = try Replayed(fixture, scene: scene(Self.scrollScene(extra: ", \"pagingEnabled\": true")))
        let last = try #require(Self.scrollLines(r.records).last)
        #expect(last.phase == "rest")
        #expect(last.offset.y.truncatingRemainder(dividingBy: 1000) == 0, "at rest on a page: \(last.offset.y)")
    }

    @Test("the layout picture shows the layout where it came to rest")
    func layoutPictureScrolled() throws {
        let (records, live) = try Self.flingThenTapSession(tapAt: 8)
        let rest = try #require(Self.scrollLines(records).last)
        let offset = try #require(live.scrollView?.contentOffset)
        #expect(offset == rest.offset && offset.y > 0)
        let svg = try #require(LayoutPicture.svg(live, title: "scrolled"))
        #expect(svg.contains("contentOffset 0, \(DecimalText.trimmed(offset.y, digits: 2))") && svg.contains("clip-path=\"url(#bounds)\""))
    }
}
