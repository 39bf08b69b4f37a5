import GestureKit
import GestureTesting
import Testing

/// A recognizer with a planted threshold bug: it takes any single step of more than 12 pt
/// between two reports of its finger for a second finger, and fails. A finger dragged at
/// 1,000 pt/s steps 8.3 pt at 120 Hz and passes; at 60 Hz it steps 16.7 pt and fails: only a
/// slow report rate crosses the limit.
final class SmoothStrokeRecognizer: GestureRecognizer {
    static let largestStep = 12.0 /* pt */
    private var last: Point?

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesBegan(touches, with: event)
        last = touches.first?.location
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesMoved(touches, with: event)
        guard let p = touches.first?.location else { return }
        defer { last = p }
        if let last, last.distance(to: p) > Self.largestStep {
            setState(.failed, because: .measured(.init("step", last.distance(to: p), exceeded: true, "largest", Self.largestStep, unit: "pt")))
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesEnded(touches, with: event)
        setState(.ended, reason: "a smooth stroke")
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        super.touchesCancelled(touches, with: event)
        state = .failed
    }
}

@Suite("Realism sweeps: seeded variations of how people make the gestures, shrunk to the smallest that fails")
struct SweepTests {
    /// The body both tests run: a 300 pt stroke in 300 ms must be recognized.
    static func strokeIsSmooth(_ variation: GestureTester.Variation) throws {
        let canvas = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 600, height: 400))
        let smooth = SmoothStrokeRecognizer(name: "smooth")
        canvas.addGestureRecognizer(smooth)
        let tester = GestureTester(root: canvas, variation: variation)
        try tester.drag(from: Point(x: 100, y: 200), to: Point(x: 400, y: 200))
        try tester.requireRecognized(smooth)
    }

    @Test("The typical variation passes the planted bug; the sweep finds it at 60 Hz and shrinks it to 81 Hz, the slowest rate that still fails, with its seed")
    func sweepFindsAndShrinksThePlantedBug() throws {
        try Self.strokeIsSmooth(.typical)
        let comments = recordedIssues {
            try GestureTester.Sweep(seed: 7, count: 24).run(Self.strokeIsSmooth)
        }.map { $0.comments.map(\.rawValue).joined(separator: "\n") }
        let sweep = try #require(comments.first { $0.hasPrefix("the sweep failed") }, "the sweep reported: \(comments)")
        #expect(sweep.contains("at variation 1 of 24 (seed 7): Variation(sampleRate: 60)"), "\(sweep)")
        #expect(sweep.contains("the smallest failing variation: Variation(sampleRate: 81)"), "\(sweep)")
        #expect(sweep.contains("GestureTester.Sweep(seed: 7).variation(1)"), "\(sweep)")
        #expect(comments.contains { $0.contains("expected smooth to recognize; it did not") && $0.contains("step 12.5 pt > largest 12 pt") },
                "the shrunk run's own failure is reported at its line, with the account: \(comments)")
        // The shrunk variation replays it exactly, and one step faster passes.
        withKnownIssue("81 Hz still fails") { try Self.strokeIsSmooth(GestureTester.Variation(sampleRate: 81)) }
        try Self.strokeIsSmooth(GestureTester.Variation(sampleRate: 82))
    }

    @Test("A sweep's variations are the same for the same seed, begin with the typical and each figure at each end of its range")
    func variationsAreSeeded() {
        let a = GestureTester.Sweep(seed: 3, count: 40).variations, b = GestureTester.Sweep(seed: 3, count: 40).variations
        #expect(a == b)
        #expect(a[0] == .typical)
        #expect(a[1] == GestureTester.Variation(sampleRate: 60) && a[2] == GestureTester.Variation(sampleRate: 240))
        #expect(GestureTester.Sweep(seed: 4, count: 40).variations != a, "another seed draws others")
        let ranges = GestureTester.Sweep.Ranges.people
        for v in a {
            #expect(ranges.sampleRate.contains(v.sampleRate) && ranges.fingerSpacingMillimetres.contains(v.fingerSpacingMillimetres))
        }
    }

    @Test("A sweep's variations are Swift Testing arguments: every one of them taps a button", arguments: GestureTester.Sweep(seed: 11, count: 16).variations)
    func asArguments(variation: GestureTester.Variation) throws {
        let screen = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let button = View(id: "button", frame: Rect(x: 150, y: 150, width: 100, height: 44))
        screen.addSubview(button)
        let tap = TapGestureRecognizer(name: "tap")
        button.addGestureRecognizer(tap)
        let tester = GestureTester(root: screen, variation: variation)
        try tester.tap(on: button)
        try tester.requireRecognized(tap)
    }
}
