import Foundation
import Testing
import GestureKit
import GestureReplay
import GestureTestSupport

/// A synthetic evemu recording on the description of the Wacom ISDv4 E6 (two slots, 2776 ×
/// 1569 units, taken from its fixture), written from touches given in points of a 1000 ×
/// 1000 scene.
struct SyntheticTrace {
    enum Phase { case down, move, up }
    struct Change {
        var slot: Int
        var phase: Phase
        var x: Double
        var y: Double
    }
    private(set) var frames: [(time: Double, changes: [Change])] = []

    mutating func frame(_ time: Double, _ changes: [(Int, Phase, Double, Double)]) {
        frames.append((time, changes.map { Change(slot: $0.0, phase: $0.1, x: $0.2, y: $0.3) }))
    }

    static let maxX = 2776.0, maxY = 1569.0

    /// The recording: the fixture's device description, then one SYN_REPORT per frame.
    func evemu() throws -> String {
        let fixture = try String(contentsOfFile: Fixtures.path("ts-wacom-isdv4-e6-tap-2f.evemu"), encoding: .utf8)
        var lines = fixture.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("E:") && !$0.isEmpty }.map(String.init)
        lines.append("# Events below: synthetic (GestureReplayTests/ConformanceReplayTests.swift)")
        var down = Set<Int>()
        var nextID = 1
        for (time, changes) in frames {
            let t = String(format: "%.6f", 1_700_000_000 + time)
            func event(_ type: Int, _ code: Int, _ value: Int) {
                lines.append("E: \(t) \(String(format: "%04x %04x", type, code)) \(value)")
            }
            let wasDown = !down.isEmpty
            for c in changes {
                event(3, 0x2f, c.slot)
                switch c.phase {
                case .down:
                    event(3, 0x39, nextID)
                    nextID += 1
                    down.insert(c.slot)
                    fallthrough
                case .move:
                    event(3, 0x35, Int((c.x / 1000 * Self.maxX).rounded()))
                    event(3, 0x36, Int((c.y / 1000 * Self.maxY).rounded()))
                case .up:
                    event(3, 0x39, -1)
                    down.remove(c.slot)
                }
            }
            if !wasDown && !down.isEmpty { event(1, 0x14a, 1) }
            if wasDown && down.isEmpty { event(1, 0x14a, 0) }
            event(0, 0, 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The rules of docs/SEMANTICS.md that the conformance pass changed (1–5), each shown
/// through `gesturekit replay`: a scene, a synthetic recording, and the JSON lines the tool
/// prints. (Rule 6, numberOfTouches, has no field in the replay's output; the engine's
/// tests check it.)
@Suite("UIKit conformance through gesturekit replay")
struct ConformanceReplayTests {
    /// One printed line, decoded.
    struct Line {
        let json: JSONValue
        var type: String? { if case let .string(s)? = json["type"] { s } else { nil } }
        var recognizer: String? { if case let .string(s)? = json["recognizer"] { s } else { nil } }
        var to: String? { if case let .string(s)? = json["to"] { s } else { nil } }
        var view: String? { if case let .string(s)? = json["view"] { s } else { nil } }
        var reason: String? { if case let .string(s)? = json["reason"] { s } else { nil } }
        var time: Double { if case let .number(n)? = json["time"] { n } else { .nan } }
        func numbers(_ key: String) -> [Double] {
            switch json[key] {
            case let .number(n)?: [n]
            case let .array(a)?: a.compactMap { if case let .number(n) = $0 { n } else { nil } }
            default: []
            }
        }
    }

    /// Runs `gesturekit replay TRACE --scene SCENE --json` and decodes what it prints.
    func replay(scene: String, _ trace: SyntheticTrace) throws -> [Line] {
        let sceneFile = try TempFile(scene, name: "scene.json")
        let traceFile = try TempFile(try trace.evemu(), name: "trace.evemu")
        defer { sceneFile.remove(); traceFile.remove() }
        let (status, out, err) = try runTool(["replay", traceFile.path, "--scene", sceneFile.path, "--json"])
        #expect(status == 0, "the replay ran: \(err)")
        return try out.split(separator: "\n").map { Line(json: try JSONParser.parse(String($0))) }
    }

    func states(_ lines: [Line], _ recognizer: String) -> [Line] {
        lines.filter { $0.type == "state" && $0.recognizer == recognizer }
    }

    @Test("a tap that failed while one finger is held does not recognize a second finger's tap")
    func finalStatesLastUntilTheSequenceEnds() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 300, 500)])
        trace.frame(0.6, [(1, .down, 600, 500)])     // the first finger held past the tap's 0.5 s
        trace.frame(0.65, [(1, .up, 600, 500)])      // a quick tap with the second finger
        trace.frame(0.9, [(0, .up, 300, 500)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
             "recognizers": [{"id": "tap", "kind": "tap", "view": "root"}]}
            """, trace)
        let tap = states(lines, "tap")
        #expect(tap.map(\.to) == ["failed"], "one failure, at 0.5 s, and no recognition for the second finger's tap: \(tap.map(\.json))")
        #expect(tap.first?.reason?.hasPrefix("held 0.5 s") == true)
    }

    @Test("a tap on a cell fires the cell's single tap or its parent's, never both, with delaysTouchesEnded false")
    func exclusivityWhateverTheBookkeeping() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 100, 100)])
        trace.frame(0.05, [(0, .up, 100, 100)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]},
                       {"id": "cell", "frame": [0, 0, 300, 300], "parent": "root"}],
             "recognizers": [
               {"id": "cellDouble", "kind": "tap", "view": "cell", "taps": 2, "delaysTouchesEnded": false},
               {"id": "cellSingle", "kind": "tap", "view": "cell", "requireToFail": ["cellDouble"], "delaysTouchesEnded": false},
               {"id": "parentDouble", "kind": "tap", "view": "root", "taps": 2, "delaysTouchesEnded": false},
               {"id": "parentSingle", "kind": "tap", "view": "root", "requireToFail": ["parentDouble"], "delaysTouchesEnded": false}]}
            """, trace)
        let recognized = lines.filter { $0.type == "state" && $0.to == "ended" }.compactMap(\.recognizer)
        #expect(recognized == ["cellSingle"], "one touch, two exclusive single taps: only the cell's recognizes")
        #expect(states(lines, "parentSingle").last?.reason == "cellSingle recognized and they are not simultaneous")
    }

    @Test("a pinch carries on when a finger lifts and is put back, and ends at the last lift")
    func pinchEndsAtTheLastLift() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 400, 500), (1, .down, 600, 500)])
        for i in 1...10 {                            // spread 100 pt each side over 0.2 s
            let d = Double(i) * 10
            trace.frame(Double(i) * 0.02, [(0, .move, 400 - d, 500), (1, .move, 600 + d, 500)])
        }
        trace.frame(0.25, [(1, .up, 700, 500)])
        trace.frame(0.35, [(1, .down, 700, 500)])    // put back where it was
        for i in 1...5 {
            let d = Double(i) * 10
            trace.frame(0.35 + Double(i) * 0.02, [(0, .move, 300 - d, 500), (1, .move, 700 + d, 500)])
        }
        trace.frame(0.5, [(0, .up, 250, 500), (1, .up, 750, 500)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
             "recognizers": [{"id": "pinch", "kind": "pinch", "view": "root"}]}
            """, trace)
        let pinch = states(lines, "pinch")
        #expect(pinch.filter { $0.to == "began" }.count == 1, "one pinch, not two")
        #expect(pinch.filter { $0.to == "ended" }.map(\.time) == [0.5], "it ends when the last finger lifts")
        #expect(!pinch.contains { $0.to == "cancelled" || $0.to == "failed" })
        let beforeLift = pinch.last { $0.time <= 0.25 }?.numbers("scale").first ?? .nan
        let afterReturn = pinch.first { $0.time > 0.35 }?.numbers("scale").first ?? .nan
        let atEnd = pinch.last?.numbers("scale").first ?? .nan
        #expect(afterReturn > beforeLift && afterReturn < beforeLift * 1.2,
                "the scale goes on from where it was when the finger returns: \(beforeLift) → \(afterReturn)")
        #expect(atEnd > 2, "the whole zoom counts: the span went from about 120 pt at began to 250 pt (the part before the lift alone is 1.7): \(atEnd)")
    }

    @Test("a finger that lands on a button during a scroll never reaches the button")
    func joiningTouchesAreCancelledInView() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 200, 200)])
        for i in 1...5 { trace.frame(Double(i) * 0.01, [(0, .move, 200, 200 + Double(i) * 12)]) }
        trace.frame(0.1, [(1, .down, 700, 700)])
        trace.frame(0.15, [(1, .up, 700, 700)])
        trace.frame(0.3, [(0, .up, 200, 260)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]},
                       {"id": "button", "frame": [600, 600, 200, 200], "parent": "root"}],
             "recognizers": [{"id": "scroll", "kind": "pan", "view": "root"}]}
            """, trace)
        #expect(states(lines, "scroll").first?.to == "began")
        let button = lines.filter { $0.type == "touches" && $0.view == "button" }
        #expect(button.isEmpty, "the scroll has begun and takes the new finger: the button hears nothing, got \(button.map(\.json))")
    }

    @Test("a flick, a 0.6 s hold, then a release: the pan ends with no velocity")
    func velocityIsRecentMotion() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 100, 500)])
        for i in 1...6 { trace.frame(Double(i) * 0.015, [(0, .move, 100 + Double(i) * 50, 500)]) }
        trace.frame(0.69, [(0, .up, 400, 500)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
             "recognizers": [{"id": "pan", "kind": "pan", "view": "root"}]}
            """, trace)
        let pan = states(lines, "pan")
        let flick = pan.last { $0.to == "changed" }?.numbers("velocity") ?? []
        #expect((flick.first ?? 0) > 3000, "while flicking, the pan reports the flick's speed: \(flick)")
        let ended = pan.last
        #expect(ended?.to == "ended" && ended?.time == 0.69)
        #expect(ended?.numbers("velocity") == [0, 0], "a release after a pause is no fling: \(ended?.numbers("velocity") ?? [])")
    }

    @Test("a horizontal pan fails on a vertical drag, with the reason in the replay's output")
    func panDirection() throws {
        var trace = SyntheticTrace()
        trace.frame(0, [(0, .down, 500, 500)])
        for i in 1...4 { trace.frame(Double(i) * 0.02, [(0, .move, 501, 500 + Double(i) * 5)]) }
        trace.frame(0.2, [(0, .up, 501, 520)])
        let lines = try replay(scene: """
            {"views": [{"id": "root", "frame": [0, 0, 1000, 1000]}],
             "recognizers": [{"id": "carousel", "kind": "pan", "view": "root", "direction": "horizontal"},
                             {"id": "list", "kind": "pan", "view": "root", "direction": "vertical"}]}
            """, trace)
        let carousel = states(lines, "carousel")
        #expect(carousel.map(\.to) == ["failed"])
        #expect(carousel.first?.reason?.hasSuffix("pt vertically; allowed horizontal") == true, "\(carousel.first?.reason ?? "")")
        #expect(states(lines, "list").map(\.to).first == "began", "the vertical pan takes the drag")
    }
}
