import GestureFormat
import Foundation
import Testing
import GestureKit
import GestureReplay
import GestureTestSupport

/// Inputs the fuzz targets (Fuzz/, `make fuzz`) found a bug with, kept in Fuzz/regressions/
/// and fed through the same API the target used.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static func input(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: packageRoot.appendingPathComponent("Fuzz/regressions/\(name)")))
    }

    /// fuzz-scene, LeakSanitizer: a `simultaneous` pair held each other strongly, so every
    /// scene with a pair (REPLAY.md's own example) leaked its two recognizers and their state.
    @Test("a scene with a simultaneous pair is freed with its session")
    func simultaneousPairIsFreed() throws {
        let scene = try Scene.parse(JSONParser.parse(bytes: Self.input("scene-leak-simultaneous-pair.json")))
        weak var pinch: GestureRecognizer?
        weak var rotate: GestureRecognizer?
        weak var engine: GestureEngine?
        try {
            let session = try ReplaySession(scene: scene) { _ in }
            pinch = session.live.recognizers.first { $0.id == "pinch" }?.recognizer
            rotate = session.live.recognizers.first { $0.id == "rotate" }?.recognizer
            engine = session.live.engine
            #expect(pinch?.simultaneousRecognizers.first === rotate, "the pair is declared")
            // Two fingers pinching out: both may recognize together.
            for (i, t) in [0.0, 0.05, 0.1, 0.15].enumerated() {
                let d = 50 + 30 * Double(i)
                session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), changes: [
                    TouchChange(sourceID: 1, phase: i == 0 ? .began : .moved, location: Point(x: 500 - d, y: 500)),
                    TouchChange(sourceID: 2, phase: i == 0 ? .began : .moved, location: Point(x: 500 + d, y: 500)),
                ])))
            }
            session.finish()
        }()
        #expect(pinch == nil && rotate == nil, "both recognizers are freed")
        #expect(engine == nil, "the engine is freed")
    }
}

extension FuzzRegressionTests {
    /// fuzz-scene, LeakSanitizer, on its seven seeds: a scene whose layout scrolls kept its
    /// scroll view, the scene's pan driving it, and everything they reach alive after the
    /// session was gone. An app that opens and closes scrolling views lost that memory each time.
    @Test("a scene with a scrolling layout is freed with its session, after a fling and with one still running")
    func scrollingLayoutIsFreed() throws {
        let scene = try Scene.parse(JSONParser.parse(bytes: Self.input("scene-leak-scrolling-layout.json")))
        for finishes in [true, false] {
            weak var scrollView: View?
            weak var pan: GestureRecognizer?
            weak var engine: GestureEngine?
            try {
                let session = try ReplaySession(scene: scene) { _ in }
                scrollView = session.live.scrollView
                pan = session.live.recognizers.first { $0.id == "pan" }?.recognizer
                engine = session.live.engine
                #expect(scrollView != nil && pan != nil, "the scene has a scroll view and its pan")
                // A flick up: the content scrolls and flings on.
                for i in 0...6 {
                    session.feed(.touchFrame(TouchFrame(time: Instant(seconds: 0.016 * Double(i)), changes: [
                        TouchChange(sourceID: 1, phase: i == 0 ? .began : .moved, location: Point(x: 500, y: 800 - 40 * Double(i))),
                    ])))
                }
                session.feed(.touchFrame(TouchFrame(time: Instant(seconds: 0.12), changes: [
                    TouchChange(sourceID: 1, phase: .ended, location: Point(x: 500, y: 560)),
                ])))
                if finishes { session.finish() }
            }()
            #expect(scrollView == nil, "the scroll view is freed (\(finishes ? "after the fling" : "mid-fling"))")
            #expect(pan == nil, "the scene's pan is freed (\(finishes ? "after the fling" : "mid-fling"))")
            #expect(engine == nil, "the engine is freed (\(finishes ? "after the fling" : "mid-fling"))")
        }
    }
}

extension FuzzRegressionTests {
    /// fuzz-scene, trap: a parameter far out of range (4.4e52) was rejected with a message
    /// that printed the number through `jsonNumber`, which converted it to Int64 and trapped.
    @Test("a huge parameter is rejected with its value in the message, not a trap")
    func hugeParameter() throws {
        let json = try JSONParser.parse(bytes: Self.input("scene-huge-parameter.json"))
        #expect {
            try Scene.parse(json)
        } throws: { error in
            let e = error as? SceneError
            return e?.path == "recognizers[0] (\"t\").maximumTapDistance"
                && e?.message.contains("found 4.44444444444444") == true && e?.message.contains("e+52") == true
        }
    }

    @Test("jsonNumber prints every finite Double as valid JSON without trapping")
    func jsonNumberMagnitudes() {
        for x in [4.444444444444445e52, -1.7976931348623157e308, 1e15, 9.3e18, -1e300] {
            let text = jsonNumber(x)
            #expect((try? JSONParser.parse(text)) == .number(x), "\(x) prints as \(text), which reads back")
        }
        #expect(jsonNumber(999_999_999_999_999) == "999999999999999")
        #expect(jsonNumber(12_345_678_901.25) == "12345678901.25")
        #expect(jsonNumber(0.000_05) == "0.00005")
        #expect(jsonNumber(.nan) == "null")
    }
}

extension FuzzRegressionTests {
    /// fuzz-scene, trap: a flow layout with a huge item height (1.3e25): the pinch's layout
    /// record's readable line converted the size to Int64 and trapped (`fmtValue`); reasons
    /// (`fmt` in GestureKit) had the same conversion.
    @Test("huge values print in readable lines and reasons without trapping")
    func hugeValuesInReadableLines() throws {
        let scene = try Scene.parse(JSONParser.parse(bytes: Self.input("scene-huge-item-size.json")))
        var lines: [String] = []
        let session = try ReplaySession(scene: scene) { lines.append($0.humanLine) }
        for (i, t) in [0.0, 0.05, 0.1, 0.15, 0.2].enumerated() {
            let d = 50 + 40 * Double(i)
            session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), changes: [
                TouchChange(sourceID: 1, phase: i == 0 ? .began : .moved, location: Point(x: 400 - d, y: 450)),
                TouchChange(sourceID: 2, phase: i == 0 ? .began : .moved, location: Point(x: 400 + d, y: 450)),
            ])))
        }
        session.finish()
        #expect(lines.contains { $0.contains("layout") && $0.contains("e+25") }, "the layout line prints the huge height")
        #expect(TransitionReason.movedTooFar(points: 1e20, allowed: 10).description == "moved 1e+20 pt > allowable 10 pt")
    }
}
