import GestureKit
import GestureTesting
import Testing

/// An app's search field as apps write one: each keystroke restarts a 300 ms debounce on the
/// clock it is given, and the search runs when it ends.
@MainActor
final class SearchField {
    let clock: any Clock<Duration>
    private var pending: Task<Void, Never>?
    private(set) var searches: [String] = []

    init(clock: any Clock<Duration>) { self.clock = clock }

    func typed(_ text: String) {
        pending?.cancel()
        pending = Task { [clock] in
            do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
            searches.append(text)
        }
    }
}

@Suite("The tester's Clock: the app's own timers on the tester's virtual time")
struct TesterClockTests {
    @Test("A debounce written against any Clock runs on the tester's time: await settle() waits for it, and only the last keystroke searches")
    @MainActor
    func debounceSettles() async throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tester = GestureTester(root: root)
        let field = SearchField(clock: tester.clock)
        field.typed("ph")
        await Task.yield()
        try await tester.wait(.milliseconds(100))
        field.typed("photo")
        await Task.yield()
        #expect(tester.pending == ["a sleeper of the tester's clock until 0.400000 s"], "\(tester.pending)")
        try await tester.settle()
        #expect(field.searches == ["photo"])
        #expect(tester.now == Instant(seconds: 0.4))
        #expect(tester.pending.isEmpty)
    }

    @Test("The clock's now is the tester's, and a sleep ends at its deadline among the gestures' events")
    @MainActor
    func clockFollowsGestures() async throws {
        let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let tester = GestureTester(root: root)
        var woke: Instant?
        let clock = tester.clock
        let task = Task { @MainActor in
            try await clock.sleep(until: clock.now.advanced(by: .milliseconds(50)), tolerance: nil)
            woke = clock.now.engineInstant
        }
        await Task.yield()
        try tester.tap(at: Point(x: 200, y: 200))
        #expect(tester.clock.now.engineInstant == tester.now)
        try await task.value
        #expect(woke.map { $0 >= Instant(seconds: 0.05) } == true, "the sleeper woke once its deadline passed: \(String(describing: woke))")
    }
}
