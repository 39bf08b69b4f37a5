import GestureKit

/// Why a tester's step or check failed, in words a failing test prints. Thrown, so it fails
/// a Swift Testing or an XCTest test alike, with its description.
public enum GestureTestError: Error, Equatable, CustomStringConvertible {
    /// A gesture aimed at `target` would land on another view (`hit`), or on none.
    case missedView(target: String, point: Point, hit: String?, why: String)
    /// `settle()` ran out of time with work still pending.
    case didNotSettle(after: Duration, pending: [String])
    /// A recognizer did not recognize (or did, where it should not): with its account.
    case recognition(expected: String, account: String)
    /// A gesture's parameters cannot make it (a scale of zero, a swipe too slow for its
    /// recognizer's time limit).
    case invalidGesture(String)
    /// A parameter of a step is out of its range (a duration of zero, an empty path, fingers
    /// that do not fit on the screen, a NaN): `parameter` is its label in the call, `value`
    /// what it was given, `why` the range it must be in. The step made no event.
    case invalidParameter(parameter: String, value: String, why: String)
    /// A failed check (`failure`) as a `require…` reported it: where it was called, and
    /// where the timeline's SVG was written (nil when it could not be).
    indirect case located(GestureTestError, site: GestureTester.CallSite, timeline: String?)
    /// A recording made on a screen of another shape than the tester's (sizes in points).
    case recordingDoesNotFit(recording: String, screen: String, why: String)
    /// A finder found nothing, or several where one was asked for: what, and the near misses.
    case notFound(String)
    /// An account that differs from its golden file (`requireAccount(matches:)`).
    case accountMismatch(golden: String, expected: String, got: String)

    /// The failure itself, without where it was reported.
    public var underlying: GestureTestError {
        if case let .located(failure, _, _) = self { return failure.underlying }
        return self
    }

    public var description: String {
        switch self {
        case let .missedView(target, point, hit, why):
            let got = hit.map { "view \($0) would get it" } ?? "no view would get it"
            return "a touch aimed at view \(target) lands at (\(fmt(point.x)), \(fmt(point.y))) on the screen, where \(got): \(why)"
        case let .didNotSettle(after, pending):
            return "the engine did not come to rest within \(fmt(Double(after.nanosecondCount) / 1e9)) s of virtual time; still pending: \(pending.joined(separator: "; "))"
        case let .recognition(expected, account):
            return "\(expected)\nwhat the recognizers did:\n\(account)"
        case let .invalidGesture(why):
            return why
        case let .invalidParameter(parameter, value, why):
            return "\(parameter): \(value) \(why)"
        case let .recordingDoesNotFit(recording, screen, why):
            return "a recording of a \(recording)-point screen does not fit the tester's \(screen)-point screen: \(why)"
        case let .notFound(what):
            return what
        case let .located(failure, site, timeline):
            return failure.description + "\n(at \(site))" + (timeline.map { "\ntimeline: \($0)" } ?? "")
        case let .accountMismatch(golden, expected, got):
            return "the account differs from its golden file \(golden) (record it anew with GESTURE_TESTING_RECORD=1):\n"
                + accountDifference(expected: expected, got: got)
        }
    }
}

/// A number as tests print it: up to three decimals, no trailing zeros.
func fmt(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "-infinity" : "infinity" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    var text = String(rounded)
    if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 4 {
        text = String(text[..<text.index(dot, offsetBy: 4)])
    }
    return text
}
