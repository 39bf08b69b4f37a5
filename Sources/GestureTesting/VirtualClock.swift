import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The tester's clock as Swift's `Clock`: give it to your app's code that takes an
/// `any Clock<Duration>` (a debounce, an animation's timer, a timeout), and that code runs on
/// the tester's virtual time. Its `now` is the tester's `now`; a `sleep` ends when the
/// tester's clock reaches its deadline, through `wait(_:)`, `settle()` or the gestures' own
/// events, never by real time passing.
///
/// The rule: when the tester's time reaches a sleeper's deadline, the engine is first brought
/// to that time (its recognizers' deadlines before it fire first), then the sleeper resumes.
/// In an `async` test, `await tester.settle()` and `await tester.wait(_:)` then give the
/// resumed tasks their turn (a task on the main actor, as a UI's timer usually is, runs to its
/// next suspension before the test goes on when the test runs on the main actor too) and
/// `settle()` goes on until neither the engine nor the clock waits for anything. The
/// synchronous `settle()` resumes the sleepers at their times without waiting for their tasks.
public final class VirtualClock: Clock, @unchecked Sendable {
    /// A moment of the tester's clock.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Nanoseconds on the tester's clock (`GestureTester.now`).
        public var nanoseconds: Int64

        public init(_ instant: GestureKit.Instant) { nanoseconds = instant.nanoseconds }
        init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

        /// The same moment as the engine's `Instant`.
        public var engineInstant: GestureKit.Instant { GestureKit.Instant(nanoseconds: nanoseconds) }

        public func advanced(by duration: Duration) -> Instant {
            Instant(nanoseconds: nanoseconds &+ duration.nanosecondCount)
        }
        public func duration(to other: Instant) -> Duration { .nanoseconds(other.nanoseconds &- nanoseconds) }
        public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
        public var description: String { "\(formatTime(engineInstant)) s" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var current = Instant(nanoseconds: 0)
    private var sleepers: [Sleeper] = []
    private var nextID = 0
    /// How many sleepers have been resumed since the tester last asked: a sign of work given
    /// to tasks.
    private var resumedCount = 0

    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        // Sleepers left when the tester goes: their tasks end with CancellationError.
        for s in sleepers { s.continuation.resume(throwing: CancellationError()) }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    public var now: Instant { locked { current } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the tester's clock reaches `deadline` (at once if it has); throws
    /// `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id: Int = locked { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = locked {
                    if deadline <= current { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled: Sleeper? = locked {
                guard let i = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: i)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The earliest deadline a sleeper waits for.
    var nextDeadline: GestureKit.Instant? {
        locked {
            guard var earliest = sleepers.first?.deadline else { return nil }
            for s in sleepers where s.deadline < earliest { earliest = s.deadline }
            return earliest.engineInstant
        }
    }

    /// What the sleepers wait for, earliest first: "a sleeper of the tester's clock until 0.300000 s".
    var pendingDescriptions: [String] {
        locked { sleepers.map(\.deadline).sorted().map { "a sleeper of the tester's clock until \($0)" } }
    }

    /// Moves the clock's `now` to `time` (never back) and resumes every sleeper due, earliest
    /// first.
    func move(to time: GestureKit.Instant) {
        let due: [Sleeper] = locked {
            let t = Instant(time)
            if t > current { current = t }
            // The common case, every event of a test without timers: nothing sleeps.
            if sleepers.isEmpty { return [] }
            let due = sleepers.filter { $0.deadline <= current }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            sleepers.removeAll { $0.deadline <= current }
            resumedCount += due.count
            return due
        }
        guard !due.isEmpty else { return }
        for s in due { s.continuation.resume() }
    }

    /// How many sleepers were resumed since the last call.
    func takeResumedCount() -> Int { locked { defer { resumedCount = 0 }; return resumedCount } }
}

/// A number that counts up under a lock, from any thread.
final class Counter: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value = 0
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func next() -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        value += 1
        return value
    }
}

extension GestureTester {
    /// How many times `await settle()` and `await wait(_:)` let the resumed tasks run before
    /// they look again (each a `Task.yield()`).
    public static let clockYields = 32

    /// Runs the engine and the clock's sleepers on to `target`, in time order: each sleeper
    /// resumes at its own deadline, after the engine has reached it.
    func advanceBoth(to target: Instant) {
        while let d = clock.nextDeadline, d <= target {
            if d > engine.now { engine.advance(to: d) }
            if d > (latest ?? .zero) { latest = d }
            clock.move(to: d)
        }
        engine.advance(to: target)
        clock.move(to: target)
    }

    /// Gives the tasks of resumed sleepers their turn.
    func yieldToResumed() async {
        for _ in 0..<GestureTester.clockYields { await Task.yield() }
    }

    /// Moves the clock on by `duration`, firing every deadline, animation frame and sleeper of
    /// ``clock`` on the way at its own time, giving each resumed task its turn.
    public func wait(_ duration: Duration) async throws {
        guard duration >= .zero else {
            throw GestureTestError.invalidParameter(parameter: "duration", value: swiftDuration(duration),
                                                    why: "must not be negative: the clock only moves on")
        }
        let target = now + duration
        while let d = clock.nextDeadline, d <= target {
            advanceBoth(to: d)
            await yieldToResumed()
        }
        advanceBoth(to: target)
        latest = target
        await yieldToResumed()
    }

    /// Runs the clock on until neither the engine nor ``clock``'s sleepers wait for anything,
    /// giving the tasks of resumed sleepers their turn at each deadline. Throws, naming what
    /// is still pending, past `limit` of virtual time.
    public func settle(limit: Duration = GestureTester.defaultSettleLimit) async throws {
        let end = now + limit
        await yieldToResumed()
        while true {
            guard let next = earliest(engine.nextDeadline, clock.nextDeadline) else { return }
            guard next <= end else {
                throw GestureTestError.didNotSettle(after: limit, pending: pending)
            }
            advanceBoth(to: next)
            latest = Swift.max(latest ?? .zero, next)
            await yieldToResumed()
        }
    }
}
