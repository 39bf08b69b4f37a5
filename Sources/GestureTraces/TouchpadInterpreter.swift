import GestureKit
import RealModule

extension GestureDefaults {
    /// A touchpad without a resolution on its axes is taken to be this size, in millimetres
    /// (libinput's own assumption for such pads: 69 × 50 mm).
    public static let touchpadAssumedSizeMillimetres = Size(width: 69, height: 50)

    /// How many screen points a millimetre of a touchpad is when its surface (`pad`, in mm;
    /// `touchpadAssumedSizeMillimetres` when unknown) is stretched over `screen`: the
    /// geometric mean of the two axes' scales. Nil for a degenerate size.
    public static func pointsPerMillimetre(pad: Size?, screen: Size) -> Double? {
        let size = pad ?? touchpadAssumedSizeMillimetres
        guard size.width > 0, size.height > 0 else { return nil }
        let k = (screen.width / size.width * screen.height / size.height).squareRoot()
        return k.isFinite && k > 0 ? k : nil
    }
    /// Two fingers on a touchpad are a scroll or a pinch/rotation once either has moved this
    /// far from where it landed, in millimetres of the pad. 1.5 mm: libinput decides about
    /// there (through libinput the synthetic 20 → 40 mm pinch begins when its span has grown
    /// by about 3.5 mm, and ends at scale 1.70; deciding at 1.5 mm a finger gives the same).
    public static let touchpadGestureDecisionMillimetres = 1.5
    /// How far the pointer moves for a millimetre of one finger's motion on a touchpad, in
    /// points (no acceleration), and how far a millimetre of two fingers' motion scrolls.
    public static let touchpadPointsPerMillimetre = 10.0
}

/// A touchpad read the way libinput reads it, from its contacts (the decoder's frames) and
/// its button: one finger moves the pointer, the button is a click at the pointer, two
/// fingers that move together scroll, two that spread or turn pinch (with rotation), at the
/// pointer.
///
/// ## Rules
/// - Millimetres of the pad come from its axes' resolution, or, without one,
///   `GestureDefaults.touchpadAssumedSizeMillimetres`. Contacts beyond the advertised range
///   (some pads report them) are clamped to it, as libinput does.
/// - One finger: the pointer moves by its motion × `touchpadPointsPerMillimetre`.
/// - `BTN_LEFT` (a clickpad's click, a button under the pad): pressed and released at the
///   pointer; while it is down the finger still moves the pointer (a click-drag).
/// - Two fingers (the first two down, on a pad with separate fingers) are undecided until
///   either has moved `touchpadGestureDecisionMillimetres` from where it landed. Then: if
///   their motion relative to each other is larger than their common motion, a pinch (scale
///   and angle measured from that moment, as libinput does), else a scroll (the fingers'
///   common motion × `touchpadPointsPerMillimetre`, with the sign of dragging the content).
///   Either goes on until fewer than two fingers are down: the pinch ends, the scroll stops.
/// - Once a scroll or pinch is decided, the pad's contacts are the gesture's: those delivered
///   so far as indirect touches are cancelled, and the pad's contacts are withheld until every
///   finger has lifted (libinput, too, turns them into the gesture and nothing else), so no
///   recognizer reads the same fingers twice.
/// - A semi-MT pad (INPUT_PROP_SEMI_MT) reports the fingers' bounding box, not the fingers:
///   its corners jump by centimetres as a second finger lands (the ALPS GlidePoint's
///   two-finger tap), which reads as motion. The built-in decoder makes no two-finger
///   gesture of such a pad (libinput scrolls with it, from its own semi-MT handling); its
///   contacts go on as indirect touches.
/// - Until then, the contacts are delivered as indirect touches (REPLAY.md, "Traces").
public struct TouchpadInterpreter: Sendable {
    public let device: InputDeviceID
    /// Millimetres per screen point of the decoder's mapping, in x and y.
    let mmPerPoint: Point
    let screen: Size
    /// The pad's size in millimetres from its resolution, if it has one.
    let padSize: Size?
    let isSemiMT: Bool

    enum Mode: Sendable { case idle, undecided, scrolling, pinching }

    var contacts: [(id: Int, point: Point)] = []
    /// The two fingers of a two-finger gesture: their ids and where they were at the start
    /// (landing, then the decision) and at the last frame, in mm.
    var pair: (a: Int, b: Int)?
    var landed: (Point, Point) = (.zero, .zero)
    var reference: (Point, Point) = (.zero, .zero)
    var last: (Point, Point) = (.zero, .zero)
    var mode = Mode.idle
    var button: Int32?
    var lastSingle: Point?
    /// A scroll or pinch has taken the contacts: the decoder's frames are not delivered until
    /// every finger has lifted.
    public private(set) var withholdsContacts = false
    var previous: [(id: Int, point: Point)] = []

    public init(device: TraceDevice, screen: Size) {
        self.device = device.id
        self.screen = screen
        padSize = device.physicalSize
        let size = device.physicalSize ?? GestureDefaults.touchpadAssumedSizeMillimetres
        mmPerPoint = Point(x: size.width / screen.width, y: size.height / screen.height)
        isSemiMT = device.isSemiMT
        contacts.reserveCapacity(5)
    }

    /// Takes one raw event of the pad before the decoder does (the button).
    public mutating func feed(_ event: EvdevEvent) {
        if event.type == .key && event.code == .btnLeft && (event.value == 0 || event.value == 1) {
            button = event.value
        }
    }

    func mm(_ p: Point) -> Point {
        Point(x: min(max(p.x, 0), screen.width) * mmPerPoint.x, y: min(max(p.y, 0), screen.height) * mmPerPoint.y)
    }

    /// A SYN_REPORT: `frame` holds the decoder's contact changes, if any. Hands what the pad
    /// did to `emit`, in order, before the frame is delivered.
    public mutating func commit(time: Instant, frame: TouchFrame?, pointer: inout PointerDecoder,
                                _ emit: (InputEvent) throws -> Void) rethrows {
        previous = contacts
        if let frame {
            for c in frame.changes {
                switch c.phase {
                case .began: contacts.append((c.sourceID, c.location))
                case .moved:
                    if let i = contacts.firstIndex(where: { $0.id == c.sourceID }) { contacts[i].point = c.location }
                case .ended, .cancelled:
                    contacts.removeAll { $0.id == c.sourceID }
                }
            }
        }
        try twoFingers(time: time, pointer: pointer, emit)
        // One finger moves the pointer (also during a click-drag).
        if contacts.count == 1 && mode == .idle {
            let p = mm(contacts[0].point)
            if let previous = lastSingle, p != previous {
                let k = GestureDefaults.touchpadPointsPerMillimetre
                let before = pointer.location
                pointer.move(by: Point(x: (p.x - previous.x) * k, y: (p.y - previous.y) * k))
                if pointer.location != before { try emit(.pointer(.motion(to: pointer.location, at: time, device: device))) }
            }
            lastSingle = p
        } else {
            lastSingle = nil
        }
        if let b = button {
            button = nil
            try emit(.pointer(.button(b == 1, at: pointer.location, time: time, device: device)))
        }
    }

    /// Whether the decoder's frame of this SYN_REPORT is delivered (not while a gesture has
    /// the contacts). Call after `commit`; the last frame of a withheld gesture releases them.
    public mutating func deliversFrame() -> Bool {
        if withholdsContacts {
            if contacts.isEmpty { withholdsContacts = false }
            return false
        }
        return true
    }

    /// The gesture takes the contacts: those delivered so far are cancelled.
    private mutating func takeContacts(time: Instant, _ emit: (InputEvent) throws -> Void) rethrows {
        withholdsContacts = true
        guard !previous.isEmpty else { return }
        try emit(.touchFrame(TouchFrame(time: time, device: device, deviceKind: .touchpad,
                                        changes: previous.map { TouchChange(sourceID: $0.id, phase: .cancelled, location: $0.point) },
                                        pointsPerMillimetre: GestureDefaults.pointsPerMillimetre(pad: padSize, screen: screen))))
    }

    private mutating func twoFingers(time: Instant, pointer: PointerDecoder, _ emit: (InputEvent) throws -> Void) rethrows {
        let at = pointer.location
        // The pair lifts: the gesture is over.
        if let p = pair, !(contacts.contains { $0.id == p.a } && contacts.contains { $0.id == p.b }) {
            switch mode {
            case .scrolling:
                try emit(.pointer(.scroll(.zero, .continuous, at: at, time: time, device: device, stop: true)))
            case .pinching:
                try emit(.touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: .end, time: time, device: device,
                                                               fingers: 2, location: at, scale: scale(last))))
            case .idle, .undecided:
                break
            }
            pair = nil
            mode = contacts.count >= 2 ? .undecided : .idle
            if contacts.count < 2 { return }
        }
        guard contacts.count >= 2, !isSemiMT else { return }
        if pair == nil {
            pair = (contacts[0].id, contacts[1].id)
            landed = (mm(contacts[0].point), mm(contacts[1].point))
            last = landed
            mode = .undecided
            return
        }
        guard let p = pair, let ia = contacts.firstIndex(where: { $0.id == p.a }),
              let ib = contacts.firstIndex(where: { $0.id == p.b }) else { return }
        let now = (mm(contacts[ia].point), mm(contacts[ib].point))
        defer { last = now }
        switch mode {
        case .idle:
            return
        case .undecided:
            let moved = max(now.0.distance(to: landed.0), now.1.distance(to: landed.1))
            guard moved >= GestureDefaults.touchpadGestureDecisionMillimetres else { return }
            let common = ((now.0 + now.1) / 2).distance(to: (landed.0 + landed.1) / 2)
            let relative = (now.1 - now.0).distance(to: landed.1 - landed.0)
            try takeContacts(time: time, emit)
            if relative > common {
                mode = .pinching
                reference = now
                try emit(.touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: .begin, time: time, device: device,
                                                               fingers: 2, location: at, scale: 1)))
            } else {
                mode = .scrolling
                let k = GestureDefaults.touchpadPointsPerMillimetre
                let delta = ((now.0 + now.1) / 2 - (landed.0 + landed.1) / 2) * k
                try emit(.pointer(.scroll(delta, .continuous, at: at, time: time, device: device)))
            }
        case .scrolling:
            let k = GestureDefaults.touchpadPointsPerMillimetre
            let delta = ((now.0 + now.1) / 2 - (last.0 + last.1) / 2) * k
            if delta != .zero { try emit(.pointer(.scroll(delta, .continuous, at: at, time: time, device: device))) }
        case .pinching:
            guard now != last else { return }
            let turned = angleDifferenceDegrees(angle(now), angle(last))
            let k = GestureDefaults.touchpadPointsPerMillimetre
            try emit(.touchpadGesture(TouchpadGestureEvent(
                kind: .pinch, phase: .update, time: time, device: device, fingers: 2, location: at,
                scale: scale(now), angleDelta: turned, delta: ((now.0 + now.1) / 2 - (last.0 + last.1) / 2) * k)))
        }
    }

    /// The fingers' distance relative to the distance when the pinch began.
    func scale(_ fingers: (Point, Point)) -> Double {
        let d0 = reference.0.distance(to: reference.1)
        return d0 > 0 ? fingers.0.distance(to: fingers.1) / d0 : 1
    }

    func angle(_ fingers: (Point, Point)) -> Double {
        Double.atan2(y: fingers.1.y - fingers.0.y, x: fingers.1.x - fingers.0.x)
    }

    func angleDifferenceDegrees(_ a: Double, _ b: Double) -> Double {
        var d = a - b
        while d > Double.pi { d -= 2 * Double.pi }
        while d <= -Double.pi { d += 2 * Double.pi }
        return d * 180 / Double.pi
    }
}
