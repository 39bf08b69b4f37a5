import Foundation
import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// A scrolling layout driven by real libinput (under umockdev): its touchpad scrolls, wheels
/// and holds do to the content what the built-in decoder's do (REPLAY.md, "Scrolling
/// layouts", pointers).
@Suite(.serialized, .enabled(if: ProbeHarness.umockdevAvailable,
                            "umockdev-run is missing: install the Debian package 'umockdev'"))
struct ScrollLayoutLibinputTests {
    typealias Line = LibinputRecognitionTests.Line

    static let start = 5000.0
    static let scene = """
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

    struct ScrollLine {
        let time: Double, offset: Double, phase: String
    }

    static func read(_ fixture: String, backend: String) throws -> (lines: [Line], scroll: [ScrollLine]) {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scroll-layout.json"
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try LibinputRecognitionTests.gesturekit(["replay", Fixtures.path(fixture), "--scene", path, "--json",
                                                           "--backend", backend])
        #expect(run.status == 0, "\(fixture) through \(backend): \(run.err)")
        let lines = LibinputRecognitionTests.parse(run.out)
        let scroll = lines.filter { $0.type == "scroll" }.compactMap { l -> ScrollLine? in
            guard let o = l.object["contentOffset"] as? [NSNumber], let p = l.object["phase"] as? String else { return nil }
            return ScrollLine(time: l.time, offset: o[1].doubleValue, phase: p)
        }
        return (lines, scroll)
    }

    /// The phases in order, repeats dropped.
    static func phases(_ s: [ScrollLine]) -> [String] {
        var result: [String] = []
        for l in s where result.last != l.phase { result.append(l.phase) }
        return result
    }

    @Test("a touchpad scroll through libinput drags the content, then it decelerates to the projection of the velocity at the stop, as through the built-in decoder",
          arguments: ["synthetic-tp-elantech-scroll-down-2f.evemu", "tp-synaptics-scroll-vertical-2f.evemu",
                      "tp-wacom-intuos5-scroll-2f.evemu"])
    func touchpadScroll(_ fixture: String) throws {
        let libinput = try Self.read(fixture, backend: "libinput"), builtin = try Self.read(fixture, backend: "builtin")
        #expect(Self.phases(builtin.scroll) == ["dragging", "decelerating", "rest"],
                "\(fixture) through the built-in decoder: \(Self.phases(builtin.scroll))")
        let ended = try #require(libinput.lines.last { $0.recognizer == "pan" && $0.to == "ended" })
        let v = -((ended.object["velocity"] as? [NSNumber])?[1].doubleValue ?? 0)
        // libinput stamps events when umockdev writes them, in real time: a writer held up by
        // a busy machine can deliver the scroll stop more than the velocity's 40 ms stop gap
        // after the last scroll event, and then, by VelocityTracker's rule, the fingers had
        // stopped: no fling. The rule is checked on the times libinput gave.
        let lastMove = libinput.lines.last { $0.recognizer == "pan" && $0.to == "changed" && $0.time <= ended.time }
        let gap = ended.time - (lastMove?.time ?? ended.time)
        if gap > Double(VelocityTracker.stopGapNanoseconds) / 1e9 {
            FileHandle.standardError.write(Data("\n*** \(fixture) through libinput: the scroll stop came \(Int(gap * 1000)) ms after the last scroll event (umockdev's real-time playback held up): a stop, not a fling, is the rule there ***\n".utf8))
            #expect(Self.phases(libinput.scroll) == ["dragging", "rest"] && v == 0,
                    "a stop \(Int(gap * 1000)) ms after the last motion ends the scroll without a fling: \(Self.phases(libinput.scroll)), \(v) pt/s")
            return
        }
        #expect(Self.phases(libinput.scroll) == ["dragging", "decelerating", "rest"],
                "\(fixture) through libinput: \(Self.phases(libinput.scroll)) (its stop \(Int(gap * 1000)) ms after the last scroll event)")
        #expect(Self.phases(libinput.scroll) == Self.phases(builtin.scroll), "the same phases through both backends")
        let release = try #require(libinput.scroll.last { $0.time <= ended.time }).offset
        let rest = try #require(libinput.scroll.last)
        let projection = ScrollPhysics(decelerationRate: DecelerationRate.normal.rawValue).projection(release, velocity: v)
        #expect(abs(rest.offset - projection) <= 1, "released at \(release) with \(v) pt/s: rests at \(rest.offset), projection \(projection)")
    }

    @Test("a flick then a touchpad hold through libinput: the hold (libinput's hold gesture) stops the fling, as the resting fingers do through the built-in decoder")
    func flickThenHold() throws {
        let fixture = "synthetic-tp-elantech-flick-then-hold-2f.evemu"
        for backend in ["libinput", "builtin"] {
            let read = try Self.read(fixture, backend: backend)
            let ended = try #require(read.lines.last { $0.recognizer == "pan" && $0.to == "ended" }, "\(backend): the flick ends")
            let v = -((ended.object["velocity"] as? [NSNumber])?[1].doubleValue ?? 0)
            let release = try #require(read.scroll.last { $0.time <= ended.time }).offset
            let rest = try #require(read.scroll.last)
            let projection = ScrollPhysics(decelerationRate: DecelerationRate.normal.rawValue).projection(release, velocity: v)
            #expect(v > 1000, "\(backend): a fast flick, \(v) pt/s")
            #expect(Self.phases(read.scroll) == ["dragging", "decelerating", "rest"], "\(backend): \(Self.phases(read.scroll))")
            // The second pair of fingers lands 0.15 s after the lift (libinput's hold begins
            // about then); the fling would go on for seconds.
            #expect(rest.time - ended.time < 0.3, "\(backend): stopped \(rest.time - ended.time) s after the lift")
            #expect(projection - rest.offset > 300, "\(backend): stopped at \(rest.offset), far short of the projection \(projection)")
            #expect(!read.lines.contains { $0.recognizer == "tap" && $0.to == "ended" }, "\(backend): the hold selects nothing")
        }
    }

    @Test("a wheel through libinput moves the content by its detents and leaves it there at once, as through the built-in decoder",
          arguments: ["synthetic-mouse-saitek-wheel.evemu", "mouse-logitech-ultrathin-wheel.evemu"])
    func wheel(_ fixture: String) throws {
        /// Each wheel scroll: how far it moved the content, and whether it came to rest at
        /// its end, right there (no fling, no bounce).
        func wheelScrolls(_ read: (lines: [Line], scroll: [ScrollLine])) -> [(moved: Double, restsAtOnce: Bool)] {
            var result: [(Double, Bool)] = []
            var origin: Double?
            for l in read.lines where l.recognizer == "pan" {
                let reason = l.object["reason"] as? String ?? ""
                if l.to == "began" { origin = reason == "wheel scroll began" ? (read.scroll.last { $0.time < l.time }?.offset ?? Self.start) : nil }
                if l.to == "ended", let o = origin {
                    let rest = read.scroll.first { $0.time >= l.time }
                    result.append(((rest?.offset ?? .nan) - o, rest?.phase == "rest" && rest?.time == l.time))
                    origin = nil
                }
            }
            return result
        }
        let libinput = wheelScrolls(try Self.read(fixture, backend: "libinput"))
        let builtin = wheelScrolls(try Self.read(fixture, backend: "builtin"))
        #expect(!libinput.isEmpty && libinput.map(\.moved) == builtin.map(\.moved),
                "each wheel scroll moves the content the same: libinput \(libinput.map(\.moved)), built-in \(builtin.map(\.moved))")
        #expect(libinput.allSatisfy { $0.restsAtOnce }, "through libinput, each wheel scroll leaves the content at rest when it ends")
    }
}
