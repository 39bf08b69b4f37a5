import Foundation
import GestureFormat
import GestureKit
import GestureReplay
import Testing
import GestureTestSupport

/// Every replay scene kept in the tests and the fuzz corpus (flow layouts with and without
/// scrolling, pinch-to-resize, select and reorder; scenes without a layout) is built, given
/// touches that engage its recognizers (a flick mid-fling included), released, and gone: its
/// engine, views and recognizers, through weak references.
@Suite("Lifetimes of replay scenes")
struct SceneLifetimeTests {
    static let scenes: [String] = {
        let folders = ["Tests/Golden/scenes", "Fuzz/corpus/scene"]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }
    }()

    @Test("the scenes are found")
    func scenesFound() {
        #expect(Self.scenes.count >= 6, "the golden scenes and the fuzz corpus's: \(Self.scenes)")
    }

    @Test("a replay scene is freed with its session once used, with a fling still running", arguments: scenes)
    func sceneIsFreed(_ file: String) throws {
        let bytes = Array(try Data(contentsOf: packageRoot.appendingPathComponent(file)))
        let scene = try Scene.parse(JSONParser.parse(bytes: bytes))
        weak var engine: GestureEngine?
        var views: [Weak<View>] = []
        var recognizers: [Weak<GestureRecognizer>] = []
        var transitions = 0
        try {
            let session = try ReplaySession(scene: scene) { record in
                if case .state = record { transitions += 1 }
            }
            engine = session.live.engine
            views = session.live.views.map { Weak($0.view) }
            recognizers = session.live.recognizers.map { Weak($0.recognizer) }
            let w = scene.screen.width, h = scene.screen.height
            func send(_ t: Double, _ changes: [(Int, TouchPhase, Double, Double)]) {
                session.feed(.touchFrame(TouchFrame(time: Instant(seconds: t), changes: changes.map {
                    TouchChange(sourceID: $0.0, phase: $0.1, location: Point(x: $0.2 * w, y: $0.3 * h))
                })))
            }
            // A tap, a long press, a two-finger pinch, then a flick up left to fling.
            send(0.0, [(1, .began, 0.3, 0.3)]); send(0.05, [(1, .ended, 0.3, 0.3)])
            send(1.0, [(2, .began, 0.2, 0.2)]); send(1.9, [(2, .ended, 0.2, 0.2)])
            send(3.0, [(3, .began, 0.4, 0.5), (4, .began, 0.6, 0.5)])
            for i in 1...8 {
                let d = 0.1 + 0.03 * Double(i)
                send(3.0 + 0.02 * Double(i), [(3, .moved, 0.5 - d, 0.5), (4, .moved, 0.5 + d, 0.5)])
            }
            send(3.2, [(3, .ended, 0.16, 0.5), (4, .ended, 0.84, 0.5)])
            send(4.0, [(5, .began, 0.5, 0.9)])
            for i in 1...6 { send(4.0 + 0.016 * Double(i), [(5, .moved, 0.5, 0.9 - 0.06 * Double(i))]) }
            send(4.11, [(5, .ended, 0.5, 0.54)])
        }()
        #expect(transitions > 0 || recognizers.isEmpty, "\(file): the recognizers acted")
        #expect(engine == nil, "\(file): the engine is freed")
        #expect(views.allSatisfy { $0.value == nil }, "\(file): every view is freed")
        #expect(recognizers.allSatisfy { $0.value == nil }, "\(file): every recognizer is freed")
    }
}

/// A weak reference to keep in an array.
struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
