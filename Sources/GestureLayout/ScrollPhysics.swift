import GestureKit
import RealModule

/// The curves a scroll view's content follows, one axis at a time, as a pure value type: no
/// clock is read. The formulas take elapsed time as a number (milliseconds and seconds, as
/// each says); the motions (`ScrollAxisMotion`, `ScrollAnimation`) take `Duration`s.
///
/// Rule: a moving axis is in exactly one motion (decelerating, bouncing back to an edge, or
/// easing to an offset set with animation); each frame advances it along its curve, and it
/// comes to rest only where its curve ends (the projection, the edge, the target).
///
/// - Deceleration (UIKit's `decelerationRate`, per millisecond): the velocity after `t` ms is
///   `v·rate^t`, and each millisecond moves the content by that millisecond's velocity, so the
///   distance after `t` ms is `v/1000 · rate·(1 − rate^t)/(1 − rate)` and the content comes
///   to rest at the projection `offset + v/1000 × rate/(1 − rate)` (v in points per second).
///   This is the model of Apple's WWDC 2018 session 803 "Designing Fluid Interfaces" (its
///   `project(initialVelocity:decelerationRate:)`), the geometric series of UIScrollView's
///   per-millisecond friction.
/// - Rubber band, while dragging past an edge: an overshoot `x` shows as
///   `(1 − 1 / (x·c / d + 1))·d`, `c = 0.55`, `d` the view's size on that axis: the farther
///   past, the less the content follows, never farther than `d` (UIScrollView's curve as
///   reverse-engineered by Grant Paul, 2014, and used since by open-source scroll views).
/// - Bounce: back to the edge on a critically damped spring,
///   `x(t) = (x₀ + (v₀ + ω·x₀)·t)·e^(−ω·t)`, `v(t) = (v₀ − ω·(v₀ + ω·x₀)·t)·e^(−ω·t)`
///   (x the overshoot, ω the spring's angular frequency): it never oscillates, and a fling
///   that runs past the edge goes out by at most `v₀ / (ω·e)` before it comes back. The
///   critically damped spring is UIKit's `UISpringTimingParameters` with damping ratio 1.
public struct ScrollPhysics: Hashable, Sendable {
    /// Velocity kept per millisecond (UIKit's `decelerationRate`).
    public var decelerationRate: Double

    public init(decelerationRate: Double = ScrollPhysics.normalRate) {
        self.decelerationRate = min(max(decelerationRate, 0.5), 0.999_999)
    }

    /// UIKit's `UIScrollView.DecelerationRate.normal`.
    public static let normalRate = 0.998 /* per ms */
    /// UIKit's `UIScrollView.DecelerationRate.fast`.
    public static let fastRate = 0.99 /* per ms */
    /// The rubber band's stiffness `c` (unitless): UIKit's 0.55.
    public static let rubberBandCoefficient = 0.55
    /// The bounce spring's angular frequency ω: a spring period of 0.5 s, so a 100 pt
    /// overshoot is back within half a point of the edge in about 0.6 s.
    public static let springAngularFrequency = 4 * Double.pi /* rad per s */
    /// A motion ends when it has less than this left to go.
    public static let restDistance = 0.5 /* pt */
    /// ...and, for a bounce, is slower than this.
    public static let restVelocity = 10.0 /* pt per s */

    // MARK: Deceleration

    /// `v·rate^ms`: the velocity `ms` milliseconds after it was `v`.
    public func velocity(_ v: Double, after ms: Double) -> Double {
        v * Double.pow(decelerationRate, ms)
    }

    /// `v/1000 · rate·(1 − rate^ms)/(1 − rate)`: how far the content goes in `ms` milliseconds
    /// from velocity `v` (points per second).
    public func distance(_ v: Double, after ms: Double) -> Double {
        let r = decelerationRate
        return v / 1000 * r * (1 - Double.pow(r, ms)) / (1 - r)
    }

    /// `offset + v/1000 × rate/(1 − rate)`: where content released at `offset` with velocity
    /// `v` (points per second) comes to rest.
    public func projection(_ offset: Double, velocity v: Double) -> Double {
        let r = decelerationRate
        return offset + v / 1000 * r / (1 - r)
    }

    /// The velocity (points per second) that makes the content come to rest `distance`
    /// points away: the projection solved for v.
    public func velocity(toTravel distance: Double) -> Double {
        let r = decelerationRate
        return distance * 1000 * (1 - r) / r
    }

    // MARK: Rubber band

    /// `(1 − 1 / (x·c / d + 1))·d`: how far content dragged `overshoot` points past an edge is
    /// shown past it, for a view `dimension` points long on that axis.
    public static func rubberBand(_ overshoot: Double, dimension d: Double) -> Double {
        guard overshoot > 0, d > 0 else { return max(0, overshoot) }
        return (1 - 1 / (overshoot * rubberBandCoefficient / d + 1)) * d
    }

    /// The inverse of `rubberBand`: the drag that shows `shown` points past an edge (a drag
    /// that catches content mid-bounce starts from there without a jump).
    public static func unstretched(_ shown: Double, dimension d: Double) -> Double {
        guard shown > 0, d > 0 else { return max(0, shown) }
        let f = min(shown / d, 0.999_999)
        return d / rubberBandCoefficient * (1 / (1 - f) - 1)
    }

    // MARK: Bounce

    /// The critically damped spring `t` seconds after it was at `x0` (overshoot, points) with
    /// velocity `v0` (points per second): the new overshoot and velocity.
    public static func spring(_ x0: Double, velocity v0: Double, after t: Double,
                              omega: Double = springAngularFrequency) -> (x: Double, v: Double) {
        let b = v0 + omega * x0
        let e = Double.exp(-omega * t)
        return ((x0 + b * t) * e, (v0 - omega * b * t) * e)
    }
}

/// One axis of a scroll view's content in motion (the part of `ScrollAnimation` that
/// `ScrollPhysics` moves).
public struct ScrollAxisMotion: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        case rest, decelerating, bouncing, easing
    }

    public var phase: Phase = .rest
    /// Points.
    public var offset: Double
    /// Points per second.
    public var velocity: Double = 0
    /// The range the offset comes back to (the edges), points.
    public var minimum: Double
    public var maximum: Double
    /// Whether running past an edge bounces (otherwise it stops at the edge).
    public var bounces: Bool
    /// Decelerating: where it comes to rest. Easing: where it goes.
    public var target: Double = 0
    /// Easing: where it started, how long it has gone and takes (seconds).
    var easeFrom: Double = 0
    var easeElapsed: Double = 0
    var easeDuration: Double = 0

    public init(offset: Double, minimum: Double, maximum: Double, bounces: Bool) {
        self.offset = offset
        self.minimum = minimum
        self.maximum = max(minimum, maximum)
        self.bounces = bounces
    }

    var edge: Double { offset < minimum ? minimum : maximum }
    var isOutOfRange: Bool { offset < minimum || offset > maximum }

    /// Released at `offset` with velocity `v` (points per second), to come to rest at
    /// `target` (the projection, or what the delegate or paging chose), if it is in range.
    public mutating func release(velocity v: Double, target wanted: Double?, physics: ScrollPhysics) {
        velocity = v
        if isOutOfRange {
            let inward = offset < minimum ? v > 0 : v < 0
            let lands = physics.projection(offset, velocity: v)
            if bounces, !(inward && lands >= minimum && lands <= maximum) {
                phase = .bouncing
                return
            }
            if !bounces {
                offset = min(max(offset, minimum), maximum)
            }
        }
        var target = wanted ?? physics.projection(offset, velocity: velocity)
        if let wanted, wanted >= minimum, wanted <= maximum {
            // The delegate's (or paging's) target: the same curve, with the velocity that ends there.
            velocity = physics.velocity(toTravel: wanted - offset)
            target = wanted
        }
        self.target = target
        phase = abs(target - offset) < ScrollPhysics.restDistance ? .rest : .decelerating
        if phase == .rest {
            offset = target >= minimum && target <= maximum ? target : offset
            velocity = 0
        }
    }

    /// Eases to `target` in `duration` (ease-out cubic: `1 − (1 − s)³`; at least 1 ms).
    public mutating func ease(to target: Double, duration: Duration) {
        easeFrom = offset
        self.target = target
        easeElapsed = 0
        easeDuration = max(duration.inSeconds, 1e-3)
        phase = .easing
    }

    /// Eases to `target` in `duration` seconds.
    @available(*, deprecated, message: "durations are Duration values: use ease(to:duration:) with duration: .seconds(s)")
    public mutating func ease(to target: Double, duration: Double) {
        ease(to: target, duration: Duration(seconds: duration))
    }

    /// Stops where it is.
    public mutating func stop() {
        phase = .rest
        velocity = 0
    }

    /// Moves `elapsed` along the current curve.
    public mutating func advance(by elapsed: Duration, physics: ScrollPhysics) {
        advance(ms: elapsed.inMilliseconds, physics: physics)
    }

    /// Moves `ms` milliseconds along the current curve.
    @available(*, deprecated, message: "durations are Duration values: use advance(by: .milliseconds(ms), physics:)")
    public mutating func advance(milliseconds ms: Double, physics: ScrollPhysics) {
        advance(ms: ms, physics: physics)
    }

    /// Moves `ms` milliseconds along the current curve (the scroll view's frames, in the
    /// figures its replays have always printed).
    mutating func advance(ms: Double, physics: ScrollPhysics) {
        guard ms > 0 else { return }
        switch phase {
        case .rest:
            return
        case .decelerating:
            offset += physics.distance(velocity, after: ms)
            velocity = physics.velocity(velocity, after: ms)
            if isOutOfRange {
                if bounces {
                    phase = .bouncing
                } else {
                    offset = min(max(offset, minimum), maximum)
                    stop()
                }
            } else if abs(target - offset) < ScrollPhysics.restDistance {
                offset = target
                stop()
            }
        case .bouncing:
            let edge = self.edge
            let (x, v) = ScrollPhysics.spring(offset - edge, velocity: velocity, after: ms / 1000)
            let crossed = (offset - edge) * x < 0
            offset = edge + x
            velocity = v
            if crossed || (abs(x) < ScrollPhysics.restDistance && abs(v) < ScrollPhysics.restVelocity) {
                offset = edge
                stop()
            }
        case .easing:
            easeElapsed += ms / 1000
            let s = min(1, easeElapsed / easeDuration)
            let remaining = 1 - s
            offset = easeFrom + (target - easeFrom) * (1 - remaining * remaining * remaining)
            velocity = (target - easeFrom) * 3 * remaining * remaining / easeDuration
            if s >= 1 {
                offset = target
                stop()
            }
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a `Double` (the scroll curves' unit).
    var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
