import Foundation

/// One JSON line of the package's tools' output (`gesturekit replay --json`, `listen --json`,
/// the probe's lines), with what the tests read of it.
package struct JSONLine {
    package let object: [String: Any]

    package init(object: [String: Any]) { self.object = object }

    package var type: String { object["type"] as? String ?? "" }
    package var recognizer: String { object["recognizer"] as? String ?? "" }
    package var to: String { object["to"] as? String ?? "" }
    package var phase: String { object["phase"] as? String ?? "" }
    package var time: Double { (object["time"] as? NSNumber)?.doubleValue ?? .nan }
    package var scale: Double? { (object["scale"] as? NSNumber)?.doubleValue }
    /// "tap ended".
    package var summary: String { "\(recognizer) \(to)" }

    /// Every line of `out` that is a JSON object, in order.
    package static func parse(_ out: String) -> [JSONLine] {
        out.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.map(JSONLine.init)
    }

    /// The recognitions (every transition but failures and changes), as "tap ended".
    package static func recognized(_ lines: [JSONLine]) -> [String] {
        lines.filter { $0.type == "state" && $0.to != "failed" && $0.to != "changed" }.map(\.summary)
    }
}
