import GestureKit

/// What a scene should do with a recording, checked on a replay's records: that a recognizer
/// reaches a state (`double ended`, `pinch recognized`) or never does (`not single ended`).
/// `gesturekit minimize` shrinks a recording while its expectation keeps failing.
///
/// `recognized` is `began` for a continuous recognizer and `ended` for a discrete one: either
/// counts.
public struct SceneExpectation: Hashable, Sendable, CustomStringConvertible {
    /// What the recognizer reaches.
    public enum Target: Hashable, Sendable {
        case state(GestureRecognizer.State)
        /// Began or ended.
        case recognized
    }

    /// The recognizer's id in the scene.
    public var recognizer: String
    public var target: Target
    /// Whether the recognizer must never reach it.
    public var never: Bool

    public init(recognizer: String, target: Target, never: Bool = false) {
        self.recognizer = recognizer
        self.target = target
        self.never = never
    }

    /// Why a text is no expectation.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `[not] ID STATE`, STATE one of began, changed, ended, cancelled, failed,
    /// recognized; `scene` must have the recognizer.
    public init(parsing text: String, in scene: Scene) throws {
        var words = text.split(separator: " ").map(String.init)
        never = words.first == "not"
        if never { words.removeFirst() }
        let states = "began, changed, ended, cancelled, failed or recognized"
        guard words.count == 2 else {
            throw ParseError(description: "\"\(text)\" is no expectation: expected \"[not] RECOGNIZER STATE\", STATE \(states)")
        }
        guard scene.recognizers.contains(where: { $0.id == words[0] }) else {
            throw ParseError(description: "\"\(text)\": the scene has no recognizer \"\(words[0])\" (its recognizers: \(scene.recognizers.map(\.id).joined(separator: ", ")))")
        }
        recognizer = words[0]
        if words[1] == "recognized" {
            target = .recognized
        } else if let state = GestureRecognizer.State(rawValue: words[1]), state != .possible {
            target = .state(state)
        } else {
            throw ParseError(description: "\"\(text)\": \"\(words[1])\" is no state a recognizer reaches: expected \(states)")
        }
    }

    public var description: String {
        let what = switch target {
        case let .state(s): s.rawValue
        case .recognized: "recognized"
        }
        return (never ? "not " : "") + "\(recognizer) \(what)"
    }

    /// Whether a replay whose records are `records` meets the expectation.
    public func holds(on records: [ReplayRecord]) -> Bool {
        let reached = records.contains { record in
            guard case let .state(s) = record, s.recognizer == recognizer else { return false }
            switch target {
            case let .state(state): return s.to == state
            case .recognized: return s.to == .began || s.to == .ended
            }
        }
        return reached != never
    }
}
