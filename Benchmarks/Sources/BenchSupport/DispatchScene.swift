import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recognizer of our own, as an app would write one: a "scribble" is a touch whose
/// path is at least 600 points long and turns back on itself at least four times after
/// strokes of 30 points or more. It keeps
/// its state in stored properties (no allocation per frame) and decides nothing until then.
public final class ScribbleGestureRecognizer: GestureRecognizer {
    private var last = Point.zero
    private var lastDirection = 0.0
    private var length = 0.0
    private var stroke = 0.0
    private var reversals = 0
    private var tracking = false

    public override class var defaultNamePrefix: String { "scribble" }

    public override func touchesBegan(_ touches: [Touch], at time: Instant) -> GestureDecision {
        // Follows the first touch; others may join.
        if !tracking {
            tracking = true
            last = touches[0].location
        }
        return .none
    }

    public override func touchesMoved(_ touches: [Touch], at time: Instant) -> GestureDecision {
        let p = touches[0].location
        let dx = p.x - last.x
        let step = p.distance(to: last)
        length += step
        stroke += step
        if dx != 0 {
            if lastDirection != 0 && (dx > 0) != (lastDirection > 0) {
                // A turn counts once the stroke before it was a real stroke, not a tremble.
                if stroke >= 30 { reversals += 1 }
                stroke = 0
            }
            lastDirection = dx
        }
        last = p
        return length >= 600 && reversals >= 4 ? .recognize(.touchesMoved) : .none
    }

    public override func touchesEnded(_ touches: [Touch], at time: Instant) -> GestureDecision {
        .fail(.touchesLiftedWithoutGesture)
    }

    public override func reset() {
        length = 0
        stroke = 0
        reversals = 0
        lastDirection = 0
        tracking = false
    }
}

/// A count the actions bump, so the optimizer cannot drop them.
public final class Counter: @unchecked Sendable {
    @exclusivity(unchecked) public var value = 0
}

/// The dispatch benchmarks' scene: a view tree five deep (root → content → list → cell →
/// button, each inset by 10 points), recognizers spread over the five levels, and a frame of
/// `touches` touches on the button that the benchmark moves each iteration.
public final class DispatchScene {
    public let engine = GestureEngine()
    public let views: [View]
    public var recognizers: [GestureRecognizer] = []
    @exclusivity(unchecked) public var frame: TouchFrame
    @exclusivity(unchecked) public var time = Instant(seconds: 1)
    @exclusivity(unchecked) public var step = 0
    public let counter = Counter()
    public let touches: Int
    /// When true the touches only tremble (±2 pt), so nothing moves past a threshold.
    public let trembleOnly: Bool
    /// `location(of:step:trembleOnly:)` for every finger at every step of its cycle (360 steps round the
    /// circle, or the tremble's 5), made once, so that a frame's cost is the engine's.
    private let path: [[Point]]

    public enum Mode: Sendable {
        /// The eight kinds with UIKit's defaults: two (or more) touches moving together start
        /// the pan; the pan excludes the rest. Frames after that are pure dispatch to the pan.
        case panning
        /// The eight kinds configured for two touches and long durations, and touches that only
        /// tremble: every recognizer stays possible and sees every frame (the first moments
        /// of a gesture, before anything has decided).
        case undecided
    }

    /// `copies` sets of the eight kinds (8 × copies recognizers).
    public init(touches: Int, copies: Int = 1, mode: Mode) {
        self.touches = touches
        trembleOnly = mode == .undecided
        path = (0..<(mode == .undecided ? 5 : 360)).map { step in
            (0..<touches).map { DispatchScene.location(of: $0, step: step, trembleOnly: mode == .undecided) }
        }
        var chain: [View] = []
        var parent: View?
        for (depth, id) in ["root", "content", "list", "cell", "button"].enumerated() {
            let inset = Double(depth) * 10
            let v = View(id: id, frame: Rect(x: depth == 0 ? 0 : 10, y: depth == 0 ? 0 : 10,
                                            width: 1000 - 2 * inset, height: 1000 - 2 * inset))
            if let parent { parent.addSubview(v) } else { engine.addRoot(v) }
            chain.append(v)
            parent = v
        }
        views = chain
        let counter = self.counter
        for copy in 0..<copies {
            let tap = TapGestureRecognizer(taps: 1, touches: mode == .undecided ? 2 : 1)
            let doubleTap = TapGestureRecognizer(taps: 2, touches: mode == .undecided ? 2 : 1)
            let longPress = LongPressGestureRecognizer()
            let pinch = PinchGestureRecognizer()
            let pan = PanGestureRecognizer()
            let rotation = RotationGestureRecognizer()
            let swipe = SwipeGestureRecognizer(direction: .right, touches: mode == .undecided ? 2 : 1)
            let scribble = ScribbleGestureRecognizer()
            if mode == .undecided {
                tap.maximumTapDuration = .seconds(1_000_000)
                doubleTap.maximumTapDuration = .seconds(1_000_000)
                longPress.minimumPressDuration = .seconds(1_000_000)
                longPress.numberOfTouchesRequired = 2
                swipe.maximumDuration = .seconds(1_000_000)
            }
            tap.require(toFail: doubleTap)
            let set: [GestureRecognizer] = [tap, doubleTap, longPress, pinch, pan, rotation, swipe, scribble]
            // button: tap, double tap; cell: long press, custom; list: pan, swipe;
            // content: pinch, rotation (pinch and rotation together); root gets nothing.
            let homes = [4, 4, 3, 2, 2, 1, 1, 3]
            for (r, home) in zip(set, homes) {
                r.name = "\(type(of: r))#\(copy)"
                r.addTarget { _ in counter.value &+= 1 }
                views[home].addGestureRecognizer(r)
            }
            pinch.recognizeSimultaneously(with: rotation)
            recognizers += set
        }
        frame = TouchFrame(time: time)
        frame.changes.reserveCapacity(touches)
        for i in 0..<touches {
            frame.changes.append(TouchChange(sourceID: i, phase: .began, location: path[0][i]))
        }
        engine.send(frame)
        for i in 0..<touches { frame.changes[i].phase = .moved }
        // Warm up: move until the scene is in its steady state (the pan has begun and the
        // others have failed, or every recognizer has seen moves), and the buffers have grown.
        for _ in 0..<200 { sendNext() }
    }

    /// Finger i's place at a step: the fingers side by side, 40 points apart, all moving
    /// together round a circle of radius 150 (a pan that never ends), or trembling by ±2 pt.
    public static func location(of finger: Int, step: Int, trembleOnly: Bool) -> Point {
        let baseX = 300 + Double(finger % 5) * 40, baseY = 400 + Double(finger / 5) * 40
        if trembleOnly {
            let d = Double((step &* 7 &+ finger) % 5) - 2
            return Point(x: baseX + d, y: baseY - d)
        }
        let angle = Double(step % 360) * (Double.pi / 180)
        return Point(x: baseX + 150 * cos(angle), y: baseY + 150 * sin(angle))
    }

    /// One frame: every touch moves (to its place in `path`).
    @inline(__always)
    public func sendNext() {
        step &+= 1
        time = Instant(nanoseconds: time.nanoseconds &+ 8_000_000)
        frame.time = time
        let row = step % path.count
        for i in 0..<touches { frame.changes[i].location = path[row][i] }
        engine.send(frame)
    }



    /// What the recognizers are doing now, for a check that the scene is what it claims.
    public var states: [GestureRecognizer.State] { recognizers.map(\.state) }
}


extension DispatchScene {
    /// Fails loudly if the scene is not in the steady state its benchmark's name claims.
    public func check(mode: Mode, copies: Int) {
        var failed = 0, began = 0, changed = 0
        engine.traceHandler = { event in
            if case let .transition(t) = event {
                switch t.to {
                case .failed: failed += 1
                case .began: began += 1
                case .changed: changed += 1
                default: break
                }
            }
        }
        // Replay the scene from a fresh engine state: lift, then put the touches down again.
        for i in 0..<touches { frame.changes[i].phase = .ended }
        engine.send(frame)
        while let d = engine.nextDeadline { engine.advance(to: d) }
        failed = 0; began = 0; changed = 0
        for i in 0..<touches { frame.changes[i].phase = .began }
        time = Instant(nanoseconds: time.nanoseconds &+ 1_000_000_000)
        frame.time = time
        engine.send(frame)
        for i in 0..<touches { frame.changes[i].phase = .moved }
        for _ in 0..<200 { sendNext() }
        engine.traceHandler = nil
        switch mode {
        case .panning:
            // One pan began (the first of each copy's eight to decide) and every other
            // recognizer failed.
            precondition(began == 1 && failed == 8 * copies - 1 && changed > 100,
                         "panning scene not in steady state: began \(began) failed \(failed) changed \(changed)")
        case .undecided:
            precondition(began == 0 && failed == 0, "undecided scene decided: began \(began) failed \(failed)")
        }
    }
}

