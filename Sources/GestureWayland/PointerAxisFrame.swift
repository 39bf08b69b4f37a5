import GestureKit

/// One `wl_pointer.frame`'s axis events, as a value: what `WaylandSeat` feeds it (each
/// `axis`, `axis_value120`, `axis_discrete`, `axis_relative_direction`, `axis_source`,
/// `axis_stop`), and the one scroll it makes at the frame's end (`finish`), as libinput's would
/// be, whatever the compositor:
/// - a wheel's distance comes from its detents where the compositor says them (`axis_value120`,
///   or `axis_discrete` below wl_seat 8, 120 each), `GestureDefaults.wheelPointsPerDetent` a
///   detent: mutter's axis values are 10 a detent, wlroots' 15; without detents (KWin and weston
///   nested), from the axis value;
/// - an axis the compositor says it inverted (`axis_relative_direction`, wl_seat 9: natural
///   scrolling, GNOME's touchpad default) is turned back first, so the direction is the hand's;
///   a compositor that inverts without saying so (sway 1.10 says `identical` with
///   `natural_scroll enabled`) cannot be turned back;
/// - a wheel's values (positive turning it back) are then negated, so the translation has the
///   sign of dragging the content; a finger or continuous scroll follows the fingers as it is,
///   and its `axis_stop` ends the scroll.
struct PointerAxisFrame {
    enum Axis { case vertical, horizontal }
    enum Source: Equatable { case wheel, finger, continuous, wheelTilt }

    private(set) var delta = Point.zero
    private var value120 = Point.zero
    private var hasValue120 = (x: false, y: false)
    private var inverted = (x: false, y: false)
    private(set) var source: Source?
    private var stopped = false
    private(set) var time: Instant?

    /// Whether an axis event (a value or a stop) came in this frame.
    var isEmpty: Bool { time == nil }

    mutating func axis(_ axis: Axis, value: Double, at time: Instant) {
        if axis == .vertical { delta.y += value } else { delta.x += value }
        self.time = time
    }

    /// `axis_value120`: a wheel's turn, 120 a detent (`axis_discrete` counts whole detents:
    /// pass them times 120).
    mutating func value120(_ axis: Axis, _ value: Int32) {
        if axis == .vertical {
            value120.y += Double(value)
            hasValue120.y = true
        } else {
            value120.x += Double(value)
            hasValue120.x = true
        }
    }

    mutating func relativeDirection(_ axis: Axis, inverted: Bool) {
        if axis == .vertical { self.inverted.y = inverted } else { self.inverted.x = inverted }
    }

    mutating func source(_ source: Source) { self.source = source }

    mutating func stop(_ axis: Axis, at time: Instant) {
        stopped = true
        self.time = time
    }

    /// The frame's scroll (nil: no axis event, or a wheel that moved nothing).
    func finish(at location: Point, device: InputDeviceID) -> PointerEvent? {
        guard let time else { return nil }
        let continuous = source == .finger || source == .continuous
        var raw = delta
        if !continuous {
            let perUnit = GestureDefaults.wheelPointsPerDetent / 120
            if hasValue120.x { raw.x = value120.x * perUnit }
            if hasValue120.y { raw.y = value120.y * perUnit }
        }
        if inverted.x { raw.x = -raw.x }
        if inverted.y { raw.y = -raw.y }
        let sign = continuous ? 1.0 : -1.0
        let scroll = Point(x: sign * raw.x, y: sign * raw.y)
        if !continuous && scroll == .zero { return nil }
        return .scroll(scroll, continuous ? .continuous : .discrete, at: location, time: time, device: device,
                       stop: continuous && stopped)
    }
}
