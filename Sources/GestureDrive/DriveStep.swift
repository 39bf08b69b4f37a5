import GestureDriveInput
import GestureKit
import GestureTesting

/// One step of `gesturekit drive --step`: a gesture in GestureTesting's vocabulary aimed at a
/// point of the app's window (in window points; `center` is the window's centre; `@NAME` the
/// centre of the shown accessible element named NAME, or whose text is NAME), a wait on the
/// app's accessibility tree, or a screenshot. A name or text with spaces is written in double
/// quotes (`tap @"Zoom in"`, `expect-text "7 × 6"`).
///
///     tap X,Y                     one finger, GestureTesting's tap
///     double-tap X,Y
///     long-press X,Y [SECONDS]    held (default: GestureTesting's, past UIKit's 0.5 s)
///     drag X,Y X2,Y2 [SECONDS]    one finger, stopped at the end (default 0.3 s)
///     pinch X,Y SCALE [SECONDS]   two fingers (default 0.5 s)
///     rotate X,Y DEGREES          two fingers turning clockwise
///     swipe X,Y left|right|up|down [FINGERS]
///     fling X,Y DX,DY [SPEED] [FINGERS]  lifted moving at SPEED points a second (default 1000)
///     edge-swipe left|right|top|bottom [DISTANCE]  one finger in from the window's edge (default 200 points)
///     screenshot FILE.png         the output, as grim saves it
///     replay FILE                 a touchscreen recording (evemu, libinput record, GestureKit input recording) at its timing
///     compare FILE.png [PERCENT]  the screen against a kept picture (default 1 % of pixels)
///     click X,Y [left|right|middle] [COUNT] the session's mouse (absolute: it goes where it is told)
///     wheel X,Y up|down|left|right [DETENTS] the mouse's wheel, the content scrolled that way
///     pen-stroke X,Y X2,Y2 [FORCE] [ALTITUDE] [AZIMUTH]  the session's pen tablet (over the output) touched
///                                 along the line; tilt as UIKit's angles, in degrees (default 60, 0)
///     touchpad-pinch SCALE [SECONDS]        two fingers on the session's touchpad (default 0.5 s)
///     touchpad-scroll DX,DY [SECONDS]       two fingers scroll the content by DX,DY points (default 0.3 s)
///     touchpad-swipe left|right|up|down [FINGERS]  3 (default) or 4 fingers travel 100 points' worth
///     touchpad-hold [FINGERS] [SECONDS]     fingers rest still on the touchpad (default 2, 0.3 s: libinput's hold)
///     wait-for NAME [SECONDS]     an accessible element named NAME (or reading it) is shown (default 10 s)
///     expect-text TEXT [SECONDS]  an accessible element's text (or name) is TEXT (default 10 s)
///     expect-gone NAME [SECONDS]  no element named NAME (or reading it) is shown (default 10 s)
public enum DriveStep: Hashable, Sendable, CustomStringConvertible {
    case tap(DrivePoint)
    case doubleTap(DrivePoint)
    case longPress(DrivePoint, seconds: Double?)
    case drag(from: DrivePoint, to: DrivePoint, seconds: Double)
    case pinch(DrivePoint, scale: Double, seconds: Double)
    case rotate(DrivePoint, degrees: Double)
    case swipe(DrivePoint, direction: SwipeDirection, fingers: Int)
    /// `fingers` fingers moved by `offset` points at `speed` points a second, lifted moving
    /// (GestureTester's `fling`).
    case fling(DrivePoint, offset: Point, speed: Double, fingers: Int)
    /// One finger in from the window's `edge` by `distance` points (GestureTester's `edgePan`).
    case edgeSwipe(edge: ScreenEdges, distance: Double)
    case screenshot(path: String)
    /// A touchscreen recording played at its recorded timing (`DriveSession.replay`).
    case replay(path: String)
    /// The screen compared with a kept picture, at most `tolerancePercent` % of its pixels
    /// differing (`DriveSession.compare`).
    case compare(path: String, tolerancePercent: Double)
    /// The mouse's `button` clicked `count` times at a point.
    case click(DrivePoint, button: ButtonMask, count: Int)
    /// The mouse's wheel turned `detents` clicks at a point, the content scrolled `direction`.
    case wheel(DrivePoint, direction: GestureTester.ScrollDirection, detents: Int)
    /// The pen tablet touched from one point to another with `force` (0 to 1).
    case penStroke(from: DrivePoint, to: DrivePoint, force: Double, tilt: PenTilt = .upright)
    /// Two fingers on the touchpad spread to `scale` times their distance.
    case touchpadPinch(scale: Double, seconds: Double)
    /// Two fingers on the touchpad scroll the content by `offset` points.
    case touchpadScroll(offset: Point, seconds: Double)
    /// Three or four fingers on the touchpad travel a swipe's way.
    case touchpadSwipe(direction: SwipeDirection, fingers: Int)
    /// `fingers` fingers rest still on the touchpad for `seconds` (libinput's hold).
    case touchpadHold(fingers: Int, seconds: Double)
    /// A shown accessible element named (or reading) `name`, within `seconds`.
    case waitFor(name: String, seconds: Double)
    /// A shown accessible element whose text (or name) is `text`, within `seconds`.
    case expectText(text: String, seconds: Double)
    /// No shown accessible element named (or reading) `name`, within `seconds`.
    case expectGone(name: String, seconds: Double)

    /// The share of pixels `compare` lets differ when none is given: 1 %.
    public static let defaultComparePercent = 1.0

    /// A pen's tilt in UIKit's angles, in degrees: `altitude` from the surface (90 upright),
    /// `azimuth` clockwise from the window's x axis.
    public struct PenTilt: Hashable, Sendable {
        public var altitude: Double
        public var azimuth: Double
        /// GestureTester's pen: 60° from the surface, leaning along x.
        public static let upright = PenTilt(altitude: 60, azimuth: 0)
        public init(altitude: Double, azimuth: Double) {
            self.altitude = altitude
            self.azimuth = azimuth
        }
    }

    /// A point of the window, its centre, or an accessible element's centre.
    public enum DrivePoint: Hashable, Sendable, CustomStringConvertible {
        case centre
        case point(Point)
        /// The centre of the shown accessible element named (or reading) this (`@NAME`).
        case element(String)

        public var description: String {
            switch self {
            case .centre: "center"
            case let .point(p): "\(number(p.x)),\(number(p.y))"
            case let .element(name): "@" + quoted(name)
            }
        }
    }

    /// Whether the step reads the app's accessibility tree (the session needs
    /// `Configuration.accessibility`).
    public var needsAccessibility: Bool {
        switch self {
        case .waitFor, .expectText, .expectGone: return true
        case let .tap(p), let .doubleTap(p), let .longPress(p, _), let .pinch(p, _, _), let .rotate(p, _), let .swipe(p, _, _),
             let .fling(p, _, _, _), let .click(p, _, _), let .wheel(p, _, _):
            if case .element = p { return true }
            return false
        case let .drag(a, b, _), let .penStroke(a, b, _, _):
            if case .element = a { return true }
            if case .element = b { return true }
            return false
        case .screenshot, .replay, .compare, .edgeSwipe, .touchpadPinch, .touchpadScroll, .touchpadSwipe, .touchpadHold: return false
        }
    }

    /// Whether the step needs a touchpad in the session.
    package var needsTouchpad: Bool { device == .touchpad }

    /// The device the step plays on (nil for the steps that are no gesture).
    public var device: VirtualDevice.Kind? {
        switch self {
        case .tap, .doubleTap, .longPress, .drag, .pinch, .rotate, .swipe, .fling, .edgeSwipe: .touchscreen
        case .click, .wheel: .mouse
        case .penStroke: .pen
        case .touchpadPinch, .touchpadScroll, .touchpadSwipe, .touchpadHold: .touchpad
        case .screenshot, .replay, .compare, .waitFor, .expectText, .expectGone: nil
        }
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var step: String
        public var why: String
        public var description: String { "the step '\(step)': \(why)" }
    }

    /// Reads a step as `--step` writes it.
    public init(parsing text: String) throws {
        func fail(_ why: String) -> ParseError { ParseError(step: text, why: why) }
        guard let words = Self.words(of: text) else { throw fail("a double quote is not closed") }
        guard let verb = words.first else { throw fail("it is empty") }
        let args = Array(words.dropFirst())
        func point(_ i: Int) throws -> DrivePoint {
            guard i < args.count else { throw fail("\(verb) needs a point of the window (X,Y in points, or center)") }
            if args[i] == "center" || args[i] == "centre" { return .centre }
            if args[i].hasPrefix("@") {
                guard args[i].count > 1 else { throw fail("'@' needs an accessible element's name after it (@7, @Save)") }
                return .element(String(args[i].dropFirst()))
            }
            let parts = args[i].split(separator: ",")
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite, x >= 0, y >= 0 else {
                throw fail("'\(args[i])' is not a point of the window (X,Y in points, both at least 0, or center)")
            }
            return .point(Point(x: x, y: y))
        }
        func number(_ i: Int, _ what: String, default value: Double? = nil) throws -> Double? {
            guard i < args.count else { return value }
            guard let v = Double(args[i]), v.isFinite else { throw fail("'\(args[i])' is not a number (\(what))") }
            return v
        }
        func direction(_ i: Int, _ verb: String) throws -> SwipeDirection {
            guard i < args.count else { throw fail("\(verb) needs a direction: left, right, up or down") }
            switch args[i] {
            case "left": return .left
            case "right": return .right
            case "up": return .up
            case "down": return .down
            default: throw fail("'\(args[i])' is not a direction: left, right, up or down")
            }
        }
        func offset(_ i: Int, _ what: String) throws -> Point {
            let parts = i < args.count ? args[i].split(separator: ",") : []
            guard parts.count == 2, let dx = Double(parts[0]), let dy = Double(parts[1]), dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else {
                throw fail("\(verb) needs \(what) in points, DX,DY (not both 0)")
            }
            return Point(x: dx, y: dy)
        }
        func count(_ n: Int) throws {
            guard args.count <= n else { throw fail("too many words after \(verb): '\(args[n...].joined(separator: " "))'") }
        }
        switch verb {
        case "tap":
            try count(1); self = .tap(try point(0))
        case "double-tap":
            try count(1); self = .doubleTap(try point(0))
        case "long-press":
            try count(2)
            let s = try number(1, "seconds held")
            if let s, s <= 0 { throw fail("a long press is held for more than 0 seconds") }
            self = .longPress(try point(0), seconds: s)
        case "drag":
            try count(3)
            let s = try number(2, "seconds", default: 0.3)!
            guard s > 0 else { throw fail("a drag lasts more than 0 seconds") }
            self = .drag(from: try point(0), to: try point(1), seconds: s)
        case "pinch":
            try count(3)
            guard let scale = try number(1, "the scale"), scale > 0 else { throw fail("pinch needs a scale above 0 (2: fingers spread to twice their distance)") }
            let s = try number(2, "seconds", default: 0.5)!
            guard s > 0 else { throw fail("a pinch lasts more than 0 seconds") }
            self = .pinch(try point(0), scale: scale, seconds: s)
        case "rotate":
            try count(2)
            guard let degrees = try number(1, "degrees") else { throw fail("rotate needs an angle in degrees (clockwise positive)") }
            self = .rotate(try point(0), degrees: degrees)
        case "swipe":
            try count(3)
            let direction = try direction(1, verb)
            let fingers = try number(2, "fingers", default: 1)!
            guard fingers >= 1, fingers <= 5, fingers == fingers.rounded() else { throw fail("a swipe takes 1 to 5 fingers") }
            self = .swipe(try point(0), direction: direction, fingers: Int(fingers))
        case "fling":
            try count(4)
            let at = try point(0)
            let by = try offset(1, "the fingers' travel")
            let speed = try number(2, "speed, points a second", default: 1000)!
            guard speed > 0 else { throw fail("a fling moves at more than 0 points a second") }
            let fingers = try number(3, "fingers", default: 1)!
            guard fingers >= 1, fingers <= 5, fingers == fingers.rounded() else { throw fail("a fling takes 1 to 5 fingers") }
            self = .fling(at, offset: by, speed: speed, fingers: Int(fingers))
        case "edge-swipe":
            try count(2)
            let edge: ScreenEdges
            switch args.first {
            case "left": edge = .left
            case "right": edge = .right
            case "top": edge = .top
            case "bottom": edge = .bottom
            default: throw fail("edge-swipe needs an edge of the window: left, right, top or bottom")
            }
            let distance = try number(1, "distance in points", default: 200)!
            guard distance > 0 else { throw fail("an edge swipe travels more than 0 points") }
            self = .edgeSwipe(edge: edge, distance: distance)
        case "screenshot":
            guard args.count == 1 else { throw fail("screenshot needs one file name (a PNG)") }
            self = .screenshot(path: args[0])
        case "replay":
            guard args.count == 1 else { throw fail("replay needs one recording of a touchscreen (evemu, libinput record, debug-events or a GestureKit input recording)") }
            self = .replay(path: args[0])
        case "compare":
            guard !args.isEmpty else { throw fail("compare needs a kept picture (a PNG), and may give a tolerance in percent of pixels") }
            try count(2)
            let percent = try number(1, "the tolerance, percent of pixels", default: Self.defaultComparePercent)!
            guard percent >= 0, percent <= 100 else { throw fail("the tolerance is a percentage of pixels, 0 to 100") }
            self = .compare(path: args[0], tolerancePercent: percent)
        case "click":
            try count(3)
            let button: ButtonMask
            switch args.count > 1 ? args[1] : "left" {
            case "left": button = .primary
            case "right": button = .secondary
            case "middle": button = .tertiary
            default: throw fail("'\(args[1])' is not a button: left, right or middle")
            }
            let n = try number(2, "clicks", default: 1)!
            guard n >= 1, n <= 3, n == n.rounded() else { throw fail("click takes 1 to 3 clicks") }
            self = .click(try point(0), button: button, count: Int(n))
        case "wheel":
            try count(3)
            guard args.count >= 2, let direction = GestureTester.ScrollDirection(rawValue: args[1]) else {
                throw fail("wheel needs a point and a direction: up, down, left or right")
            }
            let n = try number(2, "detents", default: 1)!
            guard n >= 1, n <= 100, n == n.rounded() else { throw fail("wheel turns 1 to 100 detents") }
            self = .wheel(try point(0), direction: direction, detents: Int(n))
        case "pen-stroke":
            try count(5)
            let force = try number(2, "force, 0 to 1", default: 0.5)!
            guard force > 0, force <= 1 else { throw fail("a pen stroke's force is above 0 and at most 1") }
            let altitude = try number(3, "altitude, degrees from the surface", default: PenTilt.upright.altitude)!
            guard altitude > 0, altitude <= 90 else { throw fail("a pen's altitude is above 0 and at most 90 degrees from the surface") }
            let azimuth = try number(4, "azimuth, degrees clockwise from x", default: PenTilt.upright.azimuth)!
            guard azimuth >= -360, azimuth <= 360 else { throw fail("a pen's azimuth is -360 to 360 degrees") }
            self = .penStroke(from: try point(0), to: try point(1), force: force, tilt: PenTilt(altitude: altitude, azimuth: azimuth))
        case "touchpad-pinch":
            try count(2)
            guard let scale = try number(0, "the scale"), scale > 0 else { throw fail("touchpad-pinch needs a scale above 0 (2: fingers spread to twice their distance)") }
            let s = try number(1, "seconds", default: 0.5)!
            guard s > 0 else { throw fail("a pinch lasts more than 0 seconds") }
            self = .touchpadPinch(scale: scale, seconds: s)
        case "touchpad-scroll":
            try count(2)
            let by = try offset(0, "the content's offset")
            let s = try number(1, "seconds", default: 0.3)!
            guard s > 0 else { throw fail("a scroll lasts more than 0 seconds") }
            self = .touchpadScroll(offset: by, seconds: s)
        case "touchpad-swipe":
            try count(2)
            let direction = try direction(0, verb)
            let fingers = try number(1, "fingers", default: 3)!
            guard fingers == 3 || fingers == 4 else { throw fail("a touchpad swipe takes 3 or 4 fingers") }
            self = .touchpadSwipe(direction: direction, fingers: Int(fingers))
        case "touchpad-hold":
            try count(2)
            let fingers = try number(0, "fingers", default: 2)!
            guard fingers >= 1, fingers <= 4, fingers == fingers.rounded() else { throw fail("a touchpad hold takes 1 to 4 fingers") }
            let s = try number(1, "seconds", default: 0.3)!
            guard s > 0, s <= 60 else { throw fail("a touchpad hold lasts more than 0 and at most 60 seconds") }
            self = .touchpadHold(fingers: Int(fingers), seconds: s)
        case "wait-for", "expect-text", "expect-gone":
            guard args.count == 1 || args.count == 2 else {
                throw fail("\(verb) needs one \(verb == "expect-text" ? "text" : "name") (in double quotes if it has spaces), and may give seconds to wait")
            }
            let s = try number(1, "seconds to wait", default: 10)!
            guard s > 0 else { throw fail("\(verb) waits more than 0 seconds") }
            switch verb {
            case "wait-for": self = .waitFor(name: args[0], seconds: s)
            case "expect-text": self = .expectText(text: args[0], seconds: s)
            default: self = .expectGone(name: args[0], seconds: s)
            }
        default:
            throw fail("'\(verb)' is not a step: tap, double-tap, long-press, drag, pinch, rotate, swipe, fling, edge-swipe, click, wheel, pen-stroke, touchpad-pinch, touchpad-scroll, touchpad-swipe, touchpad-hold, screenshot, replay, compare, wait-for, expect-text or expect-gone")
        }
    }

    public var description: String {
        switch self {
        case let .tap(p): "tap \(p)"
        case let .doubleTap(p): "double-tap \(p)"
        case let .longPress(p, s): "long-press \(p)" + (s.map { " \(number($0))" } ?? "")
        case let .drag(a, b, s): "drag \(a) \(b) \(number(s))"
        case let .pinch(p, scale, s): "pinch \(p) \(number(scale)) \(number(s))"
        case let .rotate(p, d): "rotate \(p) \(number(d))"
        case let .swipe(p, d, f): "swipe \(p) \(d) \(f)"
        case let .fling(p, o, v, f): "fling \(p) \(number(o.x)),\(number(o.y)) \(number(v)) \(f)"
        case let .edgeSwipe(e, d): "edge-swipe \(e == .left ? "left" : e == .right ? "right" : e == .top ? "top" : "bottom") \(number(d))"
        case let .screenshot(path): "screenshot \(quoted(path))"
        case let .replay(path): "replay \(quoted(path))"
        case let .compare(path, p): "compare \(quoted(path)) \(number(p))"
        case let .click(p, b, n): "click \(p) \(b == .secondary ? "right" : b == .tertiary ? "middle" : "left") \(n)"
        case let .wheel(p, d, n): "wheel \(p) \(d.rawValue) \(n)"
        case let .penStroke(a, b, f, t): "pen-stroke \(a) \(b) \(number(f)) \(number(t.altitude)) \(number(t.azimuth))"
        case let .touchpadPinch(scale, s): "touchpad-pinch \(number(scale)) \(number(s))"
        case let .touchpadScroll(o, s): "touchpad-scroll \(number(o.x)),\(number(o.y)) \(number(s))"
        case let .touchpadSwipe(d, f): "touchpad-swipe \(d) \(f)"
        case let .touchpadHold(f, s): "touchpad-hold \(f) \(number(s))"
        case let .waitFor(name, s): "wait-for \(quoted(name)) \(number(s))"
        case let .expectText(text, s): "expect-text \(quoted(text)) \(number(s))"
        case let .expectGone(name, s): "expect-gone \(quoted(name)) \(number(s))"
        }
    }

    /// The gesture on a tester whose screen is a window of `size` (nil for the steps that are no
    /// gesture, and for a point aimed at an accessible element, which only a session can find).
    @available(*, deprecated, renamed: "gesture(at:)", message: "gesture(at:) finds every kind of point, accessible elements included")
    public func gesture(in size: Size) -> ((GestureTester) throws -> Void)? {
        struct ElementPoint: Error {}
        return try? gesture { point in
            switch point {
            case .centre: Point(x: size.width / 2, y: size.height / 2)
            case let .point(p): p
            case .element: throw ElementPoint()
            }
        }
    }

    /// The gesture on a tester whose screen is the window, its points found by `point` (nil
    /// for the steps that are no gesture).
    public func gesture(at point: (DrivePoint) throws -> Point) throws -> ((GestureTester) throws -> Void)? {
        func ms(_ s: Double) -> Duration { .nanoseconds(Int64((s * 1e9).rounded())) }
        switch self {
        case let .tap(p): let at = try point(p); return { try $0.tap(at: at) }
        case let .doubleTap(p): let at = try point(p); return { try $0.doubleTap(at: at) }
        case let .longPress(p, s): let at = try point(p); return { try $0.longPress(at: at, duration: s.map(ms)) }
        case let .drag(a, b, s):
            let from = try point(a), to = try point(b)
            return { try $0.drag(from: from, to: to, duration: ms(s)) }
        case let .pinch(p, scale, s): let at = try point(p); return { try $0.pinch(at: at, scale: scale, duration: ms(s)) }
        case let .rotate(p, d): let at = try point(p); return { try $0.rotate(at: at, by: d * .pi / 180) }
        case let .swipe(p, d, f): let at = try point(p); return { try $0.swipe(from: at, d, fingers: f) }
        case let .fling(p, o, v, f): let at = try point(p); return { try $0.fling(from: at, by: o, velocity: v, fingers: f) }
        case let .edgeSwipe(e, d): return { try $0.edgePan(from: e, distance: d) }
        case let .click(p, b, n): let at = try point(p); return { try $0.click(at: at, button: b, count: n) }
        case let .wheel(p, d, n): let at = try point(p); return { try $0.scrollWheel(d, detents: n, at: at) }
        case let .penStroke(a, b, f, t):
            let from = try point(a), to = try point(b)
            return { try $0.penStroke(along: [from, to], force: f, altitude: t.altitude * .pi / 180, azimuth: t.azimuth * .pi / 180) }
        case .screenshot, .replay, .compare, .waitFor, .expectText, .expectGone,
             .touchpadPinch, .touchpadScroll, .touchpadSwipe, .touchpadHold: return nil
        }
    }

    /// The touchpad's frames for a touchpad step (nil for the others).
    package func touchpadFrames(on touchpad: VirtualDevice) throws -> [PadFrame]? {
        func ms(_ s: Double) -> Duration { .nanoseconds(Int64((s * 1e9).rounded())) }
        let pad = TouchpadGestures(device: touchpad)
        switch self {
        case let .touchpadPinch(scale, s): return try pad.pinch(scale: scale, duration: ms(s))
        case let .touchpadScroll(offset, s): return try pad.scroll(by: offset, duration: ms(s))
        case let .touchpadSwipe(direction, fingers):
            let travel = 100.0
            var offset = Point.zero
            if direction.contains(.left) { offset.x -= travel }
            if direction.contains(.right) { offset.x += travel }
            if direction.contains(.up) { offset.y -= travel }
            if direction.contains(.down) { offset.y += travel }
            return try pad.swipe(fingers: fingers, by: offset)
        case let .touchpadHold(fingers, s): return try pad.hold(fingers: fingers, duration: ms(s))
        default: return nil
        }
    }
}

extension DriveSession {
    /// Performs `step` on the session's touchscreen (or takes its screenshot, replays its
    /// recording, compares the screen); what it found, for a replay and a comparison
    /// (`ReplayReport`, `Comparison`: the line `gesturekit drive` prints). A comparison with
    /// no kept picture records it when `recordMissingPictures`, and waits at most
    /// `compareTimeout` seconds for the screen to match (see `compare(with:)`).
    @discardableResult
    public func perform(_ step: DriveStep, recordMissingPictures: Bool = true,
                        compareTimeout: Double = DriveSession.compareTimeout) throws -> String? {
        switch step {
        case let .screenshot(path):
            try saveScreenshot(to: path)
            return nil
        case let .replay(path):
            return try replay(path).description
        case let .compare(path, percent):
            return try compare(with: path, tolerance: percent / 100, record: recordMissingPictures, timeout: compareTimeout).description
        case let .waitFor(name, seconds):
            return "\(try waitForElement("named \"\(name)\"", timeout: seconds) { $0.reads(name) })"
        case let .expectText(text, seconds):
            return "\(try waitForElement("reading \"\(text)\"", timeout: seconds) { $0.reads(text) })"
        case let .expectGone(name, seconds):
            try waitUntilGone("named \"\(name)\"", timeout: seconds) { $0.reads(name) }
            return nil
        case .touchpadPinch, .touchpadScroll, .touchpadSwipe, .touchpadHold:
            guard let pad = configuration.devices.first(where: { $0.kind == .touchpad }) else {
                failed = true
                throw DriveError.noDevice(kind: "touchpad (gesturekit drive --touchpad)")
            }
            try performOnTouchpad(try step.touchpadFrames(on: pad) ?? [])
            return nil
        default:
            let window = try self.window ?? waitForWindow()
            let size = window.frame.size
            let gesture = try step.gesture { point in
                switch point {
                case .centre: Point(x: size.width / 2, y: size.height / 2)
                case let .point(p): p
                case let .element(name): try centre(ofElementNamed: name)
                }
            }
            guard let gesture else { return nil }
            try perform(with: step.device ?? .touchscreen, gesture)
            return nil
        }
    }
}

extension DriveStep {
    /// A step's words: split at spaces, except inside double quotes, which group a name or
    /// text with spaces into one word (`@"Zoom in"`, `"7 × 6"`); a quote inside is written \".
    /// Nil when a quote is not closed.
    static func words(of text: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false, quoted = false, escaped = false
        for c in text {
            if escaped {
                word.append(c); escaped = false
            } else if quoted {
                switch c {
                case "\\": escaped = true
                case "\"": quoted = false
                default: word.append(c)
                }
            } else if c == " " || c == "\t" {
                if inWord { words.append(word); word = ""; inWord = false }
            } else if c == "\"" {
                quoted = true; inWord = true
            } else {
                word.append(c); inWord = true
            }
        }
        if quoted || escaped { return nil }
        if inWord { words.append(word) }
        return words
    }
}

/// A name, text or file as a step writes it: as it is, or in double quotes when it has a space,
/// a tab or a quote (or is empty).
func quoted(_ word: String) -> String {
    guard word.isEmpty || word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\\" }) else { return word }
    return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// A number as a step writes it: "2", "0.5".
func number(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
