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
        }
    }
}

/// A number as tests print it: up to three decimals, no trailing zeros.
func fmt(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    var text = String(rounded)
    if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 4 {
        text = String(text[..<text.index(dot, offsetBy: 4)])
    }
    return text
}
