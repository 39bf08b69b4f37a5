/// Velocity as recent motion.
///
/// **The rule:** a gesture's velocity is the slope, at the newest sample, of a least-squares
/// fit of its position against time over the samples of the last 100 ms (`horizon`), as
/// Flutter's VelocityTracker does. Two samples more than 40 ms apart (`stopGap`) end the run:
/// what came before belongs to motion that stopped. Asked at a moment more than 40 ms after
/// the newest sample, the velocity is zero: a finger that has not moved for 40 ms has stopped.
/// So a fling is a release while moving, never a release after a pause (a flick, a 0.6 s hold,
/// then a release reports 0, not the flick's speed).
///
/// With three samples or more in the run the fit is a quadratic (Flutter's degree 2) and the
/// velocity its derivative at the newest sample; with two it is the line through them; with
/// one, or samples all at one instant, zero. The tracker never reads a clock: samples and
/// questions carry their time. It keeps the last `capacity` samples in a ring, with no
/// allocation after it is made.
///
/// **Whose time:** a touch's samples are taken at the time its source stamped the event with
/// (`Touch.timestamp`, `sampleTime(of:at:)`), not at the moment the engine handled it. A frame
/// that arrives late (stamped before the engine's time, which a display link or a busy loop
/// has moved on) is handled at the engine's time, but its motion keeps its own place in time:
/// a flick read late is still a flick. A sample stamped before the newest one (two sources
/// out of order) is taken at the newest one's time, so samples stay in order.
public struct VelocityTracker: Sendable, Hashable {
    /// How far back samples count, in nanoseconds: 100 ms.
    public static let horizonNanoseconds: Int64 = 100_000_000 /* ns */
    /// A gap between samples (or since the newest) longer than this means the motion
    /// stopped, in nanoseconds: 40 ms.
    public static let stopGapNanoseconds: Int64 = 40_000_000 /* ns */
    /// The samples kept (Flutter keeps 20).
    static let capacity = 20

    private var times: [Int64] = []
    private var xs: [Double] = []
    private var ys: [Double] = []
    /// The index of the newest sample in the ring.
    private var newest = -1
    private var count = 0

    public init() {}

    /// Adds a position at `time`; one stamped before the newest sample is taken at the
    /// newest sample's time (samples stay in time order).
    public mutating func add(_ position: Point, at time: Instant) {
        if times.isEmpty {
            times = Array(repeating: 0, count: Self.capacity)
            xs = Array(repeating: 0, count: Self.capacity)
            ys = Array(repeating: 0, count: Self.capacity)
        }
        let t = count > 0 ? max(time.nanoseconds, times[newest]) : time.nanoseconds
        newest = (newest + 1) % Self.capacity
        times[newest] = t
        xs[newest] = position.x
        ys[newest] = position.y
        count = min(count + 1, Self.capacity)
    }

    /// Forgets every sample.
    public mutating func removeAll() {
        newest = -1
        count = 0
    }

    /// The velocity at `time` (the moment of the latest event), in position units per second.
    public func velocity(at time: Instant) -> Point {
        guard count > 0, time.nanoseconds - times[newest] <= Self.stopGapNanoseconds else { return .zero }
        // The run of recent samples: within the horizon of the newest, no gap over stopGap.
        let t0 = times[newest]
        var n = 0
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var x0 = 0.0, x1 = 0.0, x2 = 0.0, y0 = 0.0, y1 = 0.0, y2 = 0.0
        var index = newest
        var previous = t0
        while n < count {
            let t = times[index]
            if t0 - t > Self.horizonNanoseconds || previous - t > Self.stopGapNanoseconds { break }
            // Milliseconds before the newest sample (≤ 0): well-conditioned sums.
            let u = Double(t - t0) / 1_000_000
            let u2 = u * u
            s1 += u; s2 += u2; s3 += u2 * u; s4 += u2 * u2
            x0 += xs[index]; x1 += u * xs[index]; x2 += u2 * xs[index]
            y0 += ys[index]; y1 += u * ys[index]; y2 += u2 * ys[index]
            previous = t
            n += 1
            index = (index + Self.capacity - 1) % Self.capacity
        }
        let s0 = Double(n)
        if n >= 3 {
            // p(u) = a + b u + c u²: the normal equations, solved by Cramer's rule for b.
            let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            if abs(det) > 1e-9 * max(1, s0 * s2 * s4) {
                func slope(_ r0: Double, _ r1: Double, _ r2: Double) -> Double {
                    (s0 * (r1 * s4 - s3 * r2) - r0 * (s1 * s4 - s3 * s2) + s2 * (s1 * r2 - r1 * s2)) / det
                }
                return Point(x: slope(x0, x1, x2) * 1000, y: slope(y0, y1, y2) * 1000)
            }
        }
        guard n >= 2 else { return .zero }
        // The least-squares line.
        let det = s0 * s2 - s1 * s1
        guard abs(det) > 1e-9 else { return .zero }
        return Point(x: (s0 * x1 - s1 * x0) / det * 1000, y: (s0 * y1 - s1 * y0) / det * 1000)
    }
}

extension VelocityTracker {
    /// The time a sample of `touches` is taken at: the latest of their timestamps (their
    /// sources' times), or `time`, the engine's, when there are none.
    @inline(__always)
    static func sampleTime(of touches: [Touch], at time: Instant) -> Instant {
        guard var latest = touches.first?.timestamp else { return time }
        for touch in touches where touch.timestamp > latest { latest = touch.timestamp }
        return latest
    }
}

/// A recognizer's reported velocity, fitted only when it is read.
///
/// **The rule:** reading `value` gives exactly what `tracker.velocity(at:)` would have given
/// when the recognizer measured it (`measure(at:)`), however much later it is read: the fit
/// is a pure function of the samples and the moment, so it is put off until someone asks
/// (an action, a trace), and every change to the samples that is not followed by a new
/// measurement first fixes the value measured before it (`add`, `removeAll`). A gesture
/// whose velocity nobody reads never pays for the least-squares fit.
struct LazyVelocity: Sendable, Hashable {
    private(set) var tracker = VelocityTracker()
    /// The moment the velocity was last measured at, if it has not been fixed since.
    private var measuredAt: Instant?
    /// The value, when `measuredAt` is nil.
    private var fixed = Point.zero

    /// The velocity as last measured (or set).
    var value: Point {
        if let measuredAt { return tracker.velocity(at: measuredAt) }
        return fixed
    }

    /// The velocity is now `v` (zero at a gesture's start).
    mutating func set(_ v: Point) {
        measuredAt = nil
        fixed = v
    }

    /// The velocity is now the fit of the samples at `time`.
    mutating func measure(at time: Instant) {
        measuredAt = time
    }

    /// Adds a sample and measures the velocity at its time (what a change does every frame).
    mutating func addAndMeasure(_ position: Point, at time: Instant) {
        tracker.add(position, at: time)
        measuredAt = time
    }

    /// Adds a sample, keeping the velocity as it was measured.
    mutating func add(_ position: Point, at time: Instant) {
        fix()
        tracker.add(position, at: time)
    }

    /// Forgets the samples, keeping the velocity as it was measured.
    mutating func removeAll() {
        fix()
        tracker.removeAll()
    }

    /// Forgets the samples and the velocity (zero).
    mutating func reset() {
        tracker.removeAll()
        set(.zero)
    }

    private mutating func fix() {
        if let measuredAt {
            fixed = tracker.velocity(at: measuredAt)
            self.measuredAt = nil
        }
    }
}
