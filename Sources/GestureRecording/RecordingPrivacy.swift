import GestureKit

/// What a recording leaves out, so that it can be attached to a bug report (docs/RECORDING.md,
/// "Before you attach a recording").
///
/// A recording holds no key codes and no text, but a touch's position is what was touched:
/// taps on an on-screen keyboard or a PIN pad spell what was typed, and a pen's force and
/// angles to the nanosecond are a handwriting signature. An app marks the views whose touches
/// are private (`markPrivate`); the recorder then writes every touch that begins on one at the
/// view's centre (`PrivateTouches.centred`) or not at all (`.dropped`). It may also coarsen
/// every position, drop the pen's force and tilt, and name devices by their kind and number
/// instead of their names ("Alice's Magic Trackpad" becomes "touchpad 1").
///
/// Private views are held weakly: a view that goes away stops being one.
public struct RecordingPrivacy {
    /// How a touch on a private view is written.
    public enum PrivateTouches: String, Hashable, Sendable, CaseIterable {
        /// At the private view's centre (in screen points, where it was when the touch began),
        /// every change of the touch at that one point; a pen's force and angles those of a
        /// pen upright at rest. A replay sees a touch held still on the view for as long as it
        /// was down: a tap or a long press on it is one there, a pan or a stroke is not.
        case centred
        /// Not written at all (a frame of only private touches is no line). A replay sees
        /// nothing on the view; gestures elsewhere are as they were.
        case dropped
    }

    /// How touches on private views are written. Default `.centred`.
    public var privateTouches: PrivateTouches
    /// Every position (touches, the pointer, pens, touchpad gestures' location) rounded to the
    /// nearest multiple of this many points; nil keeps them as received. Movements (a scroll's
    /// or a gesture's delta) are kept.
    public var positionGrid: Double?
    /// Whether a pen's force, angles and height above the surface are written; without them a
    /// touching pen has force 1 and a hovering one 0, both upright.
    public var keepsPenForceAndTilt: Bool
    /// Whether devices are named by their kind and number ("touchscreen 1", "pen 2"), their
    /// `system` names left empty and their names taken out of notes, instead of as the source
    /// gave them.
    public var namesDevicesByKind: Bool

    private var views: [WeakView] = []

    public init(privateTouches: PrivateTouches = .centred, positionGrid: Double? = nil,
                keepsPenForceAndTilt: Bool = true, namesDevicesByKind: Bool = false) {
        self.privateTouches = privateTouches
        self.positionGrid = positionGrid.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.keepsPenForceAndTilt = keepsPenForceAndTilt
        self.namesDevicesByKind = namesDevicesByKind
    }

    /// Everything as received.
    public static var none: RecordingPrivacy { RecordingPrivacy() }

    /// Marks `view` private: a touch that begins where the view takes it (the view or one of
    /// its subviews is hit there) is written as `privateTouches` says, and so is a pen or a
    /// pointer over it.
    public mutating func markPrivate(_ view: View) {
        views.removeAll { $0.view == nil || $0.view === view }
        views.append(WeakView(view: view))
    }

    /// The views marked private that are still there.
    public var privateViews: [View] { views.compactMap(\.view) }

    /// Whether the recording is written as received.
    var keepsEverything: Bool {
        views.isEmpty && positionGrid == nil && keepsPenForceAndTilt && !namesDevicesByKind
    }

    /// The private view that takes a touch at `point` (screen points), if any: the view's
    /// root hit-tested there finds the view or one of its subviews. (A view in front of it
    /// in another root is not seen: such a touch is private too, which errs on the safe side.)
    func privateView(at point: Point) -> View? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        for entry in views {
            guard let view = entry.view else { continue }
            var root = view
            while let parent = root.superview { root = parent }
            if let hit = root.hitTest(root.convertFromSuperview(point)), hit.isDescendant(of: view) { return view }
        }
        return nil
    }

    private struct WeakView {
        weak var view: View?
    }
}

/// Applies a `RecordingPrivacy` to the events a recording writes, one by one, in order:
/// it follows which touches, pens and pointers began on a private view until they lift.
/// With nothing to leave out, an event passes with one test.
package final class PrivacyFilter {
    package var privacy: RecordingPrivacy {
        didSet { active = !privacy.keepsEverything }
    }
    private var active: Bool
    /// Touches (device, id) that began on a private view: where they are written.
    private var privateTouches: [TouchKey: Point] = [:]
    /// Pens whose tip came down on a private view, and pointers whose button touch began on
    /// one: where they are written.
    private var privatePens: [InputDeviceID: Point] = [:]
    private var privatePointers: [InputDeviceID: Point] = [:]
    private var pressedButtons: [InputDeviceID: Set<Int>] = [:]
    /// Devices' names as the source gave them and as written, for `namesDevicesByKind`.
    private var names: [InputDeviceID: (given: String, written: String)] = [:]
    private var kindCounts: [String: Int] = [:]

    private struct TouchKey: Hashable {
        var device: InputDeviceID
        var id: Int
    }

    package init(_ privacy: RecordingPrivacy) {
        self.privacy = privacy
        active = !privacy.keepsEverything
    }

    /// The event as a recording writes it, or nil when none of it is written.
    @inline(__always)
    package func filter(_ event: InputEvent) -> InputEvent? {
        guard active else { return event }
        return apply(event)
    }

    private func apply(_ event: InputEvent) -> InputEvent? {
        switch event {
        case let .deviceAdded(info):
            return .deviceAdded(named(info))
        case var .touchFrame(frame):
            var privatePen = false
            var kept: [TouchChange] = []
            kept.reserveCapacity(frame.changes.count)
            for var change in frame.changes {
                let key = TouchKey(device: frame.device, id: change.sourceID)
                if change.phase == .began {
                    privateTouches[key] = privacy.privateView(at: change.location).map(Self.centre)
                }
                if let centre = privateTouches[key] {
                    if change.phase == .ended || change.phase == .cancelled { privateTouches[key] = nil }
                    privatePen = true
                    guard privacy.privateTouches == .centred else { continue }
                    change.location = centre
                } else {
                    change.location = coarse(change.location)
                }
                kept.append(change)
            }
            if kept.isEmpty && !frame.changes.isEmpty { return nil }
            frame.changes = kept
            if let pen = frame.pen { frame.pen = privatePen ? Self.atRest(pen, touching: true) : sample(pen, touching: true) }
            return .touchFrame(frame)
        case var .pen(p):
            let touching = p.phase == .down || p.phase == .moved
            if p.phase == .down { privatePens[p.device] = privacy.privateView(at: p.location).map(Self.centre) }
            let centre = privatePens[p.device] ?? privacy.privateView(at: p.location).map(Self.centre)
            if p.phase == .up || p.phase == .out { privatePens[p.device] = nil }
            if let centre {
                guard privacy.privateTouches == .centred else { return nil }
                p.location = centre
                p.sample = Self.atRest(p.sample, touching: touching)
            } else {
                p.location = coarse(p.location)
                p.sample = sample(p.sample, touching: touching)
            }
            return .pen(p)
        case var .pointer(p):
            if p.kind == .button, ButtonMask(evdevCode: p.button) != nil {
                var pressed = pressedButtons[p.device] ?? []
                if p.pressed {
                    if pressed.isEmpty { privatePointers[p.device] = privacy.privateView(at: p.location).map(Self.centre) }
                    pressed.insert(p.button)
                } else {
                    pressed.remove(p.button)
                }
                pressedButtons[p.device] = pressed
            }
            let centre = privatePointers[p.device] ?? privacy.privateView(at: p.location).map(Self.centre)
            if p.kind == .leave || (p.kind == .button && pressedButtons[p.device]?.isEmpty != false) {
                privatePointers[p.device] = nil
                if p.kind == .leave { pressedButtons[p.device] = nil }
            }
            if let centre {
                guard privacy.privateTouches == .centred else { return nil }
                p.location = centre
            } else {
                p.location = coarse(p.location)
            }
            return .pointer(p)
        case var .touchpadGesture(g):
            if let centre = privacy.privateView(at: g.location).map(Self.centre) {
                guard privacy.privateTouches == .centred else { return nil }
                g.location = centre
            } else {
                g.location = coarse(g.location)
            }
            return .touchpadGesture(g)
        case let .note(time, device, text):
            guard privacy.namesDevicesByKind else { return event }
            var scrubbed = text
            for (given, written) in names.values where !given.isEmpty {
                scrubbed = scrubbed.replacingAll(given, with: written)
            }
            return .note(time: time, device: device, scrubbed)
        case let .deviceRemoved(device, _):
            privateTouches = privateTouches.filter { $0.key.device != device }
            privatePens[device] = nil
            privatePointers[device] = nil
            pressedButtons[device] = nil
            return event
        case .modifiers, .eventsDropped:
            return event
        }
    }

    private static func centre(_ view: View) -> Point {
        view.convertToScreen(Point(x: view.bounds.midX, y: view.bounds.midY))
    }

    private func coarse(_ p: Point) -> Point {
        guard let grid = privacy.positionGrid else { return p }
        func round(_ v: Double) -> Double { v.isFinite ? (v / grid).rounded() * grid : v }
        return Point(x: round(p.x), y: round(p.y))
    }

    private func sample(_ s: PenSample, touching: Bool) -> PenSample {
        privacy.keepsPenForceAndTilt ? s : Self.atRest(s, touching: touching)
    }

    /// A pen upright, its force 1 touching and 0 hovering, its height not given: what a pen
    /// sample says when its force and tilt are left out.
    private static func atRest(_ s: PenSample, touching: Bool) -> PenSample {
        PenSample(force: touching ? 1 : 0, altitudeAngle: .pi / 2, azimuthAngle: 0, zOffset: nil, tool: s.tool)
    }

    private func named(_ info: InputDeviceInfo) -> InputDeviceInfo {
        guard privacy.namesDevicesByKind else { return info }
        if let known = names[info.id] {
            var again = info
            again.name = known.written
            again.systemName = ""
            return again
        }
        let kind = info.kind?.rawValue ?? (info.capabilities.contains(.keyboard) ? "keyboard"
            : info.capabilities.contains(.pointer) ? "pointer" : "device")
        let number = (kindCounts[kind] ?? 0) + 1
        kindCounts[kind] = number
        var renamed = info
        renamed.name = "\(kind) \(number)"
        renamed.systemName = ""
        names[info.id] = (info.name, renamed.name)
        return renamed
    }
}

extension String {
    /// `self` with every occurrence of `target` replaced (no Foundation).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }
}
