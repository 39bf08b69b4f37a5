import Foundation
import Testing
import GestureKit
import GestureReplay

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
                session.feed(.frame(TouchFrame(time: Instant(seconds: t), changes: [
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
