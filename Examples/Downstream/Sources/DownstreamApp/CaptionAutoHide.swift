/// The caption hides itself a while after the last touch, on the clock it is given: the
/// system's in the app, the tester's (`GestureTester.clock`) in a test, where the wait takes
/// no real time.
@MainActor
public final class CaptionAutoHide {
    public private(set) var isShown = true
    private let clock: any Clock<Duration>
    private let delay: Duration
    private var timer: Task<Void, Never>?

    public init(clock: any Clock<Duration> = ContinuousClock(), delay: Duration = .seconds(3)) {
        self.clock = clock
        self.delay = delay
    }

    /// A touch: the caption shows, and hides `delay` after the last one.
    public func touched() {
        isShown = true
        timer?.cancel()
        timer = Task { [clock, delay] in
            do { try await clock.sleep(for: delay) } catch { return }
            self.isShown = false
        }
    }
}
