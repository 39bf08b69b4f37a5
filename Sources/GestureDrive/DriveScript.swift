import GestureDriveInput
import GestureKit

/// A test for `gesturekit drive FILE` (a `.drive` file): the app, the session's settings and
/// the steps, one a line, for projects that are not written in Swift.
///
///     # gnome-calculator multiplies
///     app gnome-calculator
///     output 1000x1000
///     tap @7
///     tap @×
///     tap @6
///     tap @=
///     expect-text 42
///
/// Settings come before the first step: `app COMMAND [ARGS...]` (required, unless the command
/// line gives the app), `output WxH`, `env NAME=VALUE` (repeated), `compositor sway|kwin`,
/// `touchpad` and `accessibility` (each alone on its line). Every other line is a step as `--step` writes it
/// (`DriveStep`). `#` starts a comment line; blank lines are skipped. Words are split on
/// spaces; double quotes keep a word with spaces whole (`app eog "My Pictures/a.png"`,
/// `wait-for "Zoom In"`, `env TITLE="a b"`).
public struct DriveScript: Hashable, Sendable {
    /// The app's command line, if the file names one.
    public var app: [String]?
    public var output: Size?
    public var environment: [String: String] = [:]
    public var touchpad = false
    public var accessibility = false
    /// The compositor (`compositor sway|kwin`), if the file names one.
    public var compositor: DriveSession.Compositor?
    /// The steps with the lines they were read from (1, 2, …).
    public private(set) var steps: [Step] = []

    /// A step and the line it was read from.
    public struct Step: Hashable, Sendable {
        public var line: Int
        public var step: DriveStep
    }

    /// Why a file is not a drive test: its name, the line, what is wrong.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var file: String
        public var line: Int
        public var why: String
        public var description: String { "\(file):\(line): \(why)" }
    }

    /// Reads `text`, naming `file` in its errors.
    public init(parsing text: String, file: String) throws {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let trimmed = raw.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            func fail(_ why: String) -> ParseError { ParseError(file: file, line: line, why: why) }
            guard let words = DriveStep.words(of: trimmed), let verb = words.first else {
                throw fail("a double quote is not closed")
            }
            let rest = Array(words.dropFirst())
            let isSetting = ["app", "output", "env", "touchpad", "accessibility", "compositor"].contains(verb)
            if isSetting && !steps.isEmpty {
                throw fail("'\(verb)' is a setting: settings come before the first step")
            }
            switch verb {
            case "app":
                guard !rest.isEmpty else { throw fail("app needs the app's command line") }
                guard app == nil else { throw fail("a second app: one app a test") }
                app = rest
            case "output":
                let parts = rest.first?.split(separator: "x") ?? []
                guard rest.count == 1, parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
                      w > 0, h > 0, w <= 16384, h <= 16384 else {
                    throw fail("output needs WIDTHxHEIGHT in points (two numbers above 0)")
                }
                output = Size(width: w, height: h)
            case "env":
                guard rest.count == 1, let eq = rest[0].firstIndex(of: "="), eq != rest[0].startIndex else {
                    throw fail("env needs one NAME=VALUE")
                }
                environment[String(rest[0][..<eq])] = String(rest[0][rest[0].index(after: eq)...])
            case "compositor":
                guard rest.count == 1, let c = DriveSession.Compositor(rawValue: rest[0]) else {
                    throw fail("compositor needs one of: \(DriveSession.Compositor.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                compositor = c
            case "touchpad", "accessibility":
                guard rest.isEmpty else { throw fail("\(verb) stands alone on its line") }
                if verb == "touchpad" { touchpad = true } else { accessibility = true }
            default:
                do {
                    steps.append(Step(line: line, step: try DriveStep(parsing: trimmed)))
                } catch let error as DriveStep.ParseError {
                    throw fail("\(error.why) (in '\(trimmed)')")
                }
            }
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
