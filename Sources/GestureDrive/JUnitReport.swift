#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A run of `gesturekit drive` as JUnit XML (`--junit FILE`), the report CI systems (GitLab,
/// Jenkins, GitHub's test-report actions) read: one `<testsuite>` inside `<testsuites>`, one
/// `<testcase>` for starting the app and one for each step, each with its time in seconds;
/// the step that failed has a `<failure>` (its message in the attribute, in full in the
/// text), the steps after it a `<skipped>`, and drive's own lines are the suite's
/// `<system-out>`.
///
/// Well formed whatever the messages hold: `&`, `<`, `>`, `"` and `'` are escaped everywhere,
/// line breaks and tabs in attributes as character references, and the characters XML 1.0
/// cannot carry at all (the C0 controls other than tab, line feed and carriage return, and
/// U+FFFE, U+FFFF) become U+FFFD.
package struct JUnitReport: Sendable {
    package enum Outcome: Hashable, Sendable {
        case passed
        /// The step ran and did not do what was asked.
        case failed(message: String)
        /// The step could not run at all (bad arguments, a missing program).
        case error(message: String)
        /// Not run: `why`.
        case skipped(why: String)
    }

    package struct Case: Hashable, Sendable {
        package var name: String
        package var seconds: Double
        package var outcome: Outcome

        package init(name: String, seconds: Double, outcome: Outcome) {
            self.name = name
            self.seconds = seconds
            self.outcome = outcome
        }
    }

    package var name: String
    package var cases: [Case] = []
    /// Drive's own lines (standard output).
    package var systemOut: [String] = []
    /// Its error lines.
    package var systemErr: [String] = []
    /// Name-value pairs the suite carries (the app's command line, the device).
    package var properties: [(name: String, value: String)] = []
    /// When the run started, seconds since 1970 (UTC).
    package var timestamp: Int?
    package var hostname: String?

    package init(name: String = "gesturekit drive") {
        self.name = name
    }

    package var xml: String {
        func count(_ test: (Outcome) -> Bool) -> Int { cases.filter { test($0.outcome) }.count }
        let failures = count { if case .failed = $0 { true } else { false } }
        let errors = count { if case .error = $0 { true } else { false } }
        let skipped = count { if case .skipped = $0 { true } else { false } }
        let time = Self.seconds(cases.reduce(0) { $0 + $1.seconds })
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\""
        let n = Self.attribute(name)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(n)\" \(counts)>\n"
        out += "  <testsuite name=\"\(n)\" \(counts)"
        if let timestamp { out += " timestamp=\"\(Self.iso8601(timestamp))\"" }
        if let hostname { out += " hostname=\"\(Self.attribute(hostname))\"" }
        out += ">\n"
        if !properties.isEmpty {
            out += "    <properties>\n"
            for p in properties { out += "      <property name=\"\(Self.attribute(p.name))\" value=\"\(Self.attribute(p.value))\"/>\n" }
            out += "    </properties>\n"
        }
        for c in cases {
            let head = "    <testcase name=\"\(Self.attribute(c.name))\" classname=\"\(n)\" time=\"\(Self.seconds(c.seconds))\""
            switch c.outcome {
            case .passed:
                out += head + "/>\n"
            case let .failed(message):
                out += head + ">\n      <failure message=\"\(Self.attribute(Self.firstLine(message)))\" type=\"failure\">\(Self.text(message))</failure>\n    </testcase>\n"
            case let .error(message):
                out += head + ">\n      <error message=\"\(Self.attribute(Self.firstLine(message)))\" type=\"error\">\(Self.text(message))</error>\n    </testcase>\n"
            case let .skipped(why):
                out += head + ">\n      <skipped message=\"\(Self.attribute(why))\"/>\n    </testcase>\n"
            }
        }
        out += "    <system-out>\(Self.text(systemOut.map { $0 + "\n" }.joined()))</system-out>\n"
        out += "    <system-err>\(Self.text(systemErr.map { $0 + "\n" }.joined()))</system-err>\n"
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// Writes the report to `path`.
    package func write(to path: String) throws {
        try writeTextFile(path, xml)
    }

    // MARK: Escaping

    /// Whether XML 1.0 can carry `scalar` at all (escaped or not).
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `text` as element content.
    package static func text(_ text: String) -> String { escape(text, attribute: false) }
    /// `text` as an attribute's value (between double quotes).
    package static func attribute(_ text: String) -> String { escape(text, attribute: true) }

    static func escape(_ text: String, attribute: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            case "\n" where attribute: out.append(contentsOf: "&#10;".unicodeScalars)
            case "\r": out.append(contentsOf: "&#13;".unicodeScalars) // kept: a parser would fold a bare one
            case "\t" where attribute: out.append(contentsOf: "&#9;".unicodeScalars)
            default: out.append(isXMLCharacter(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return String(out)
    }

    static func firstLine(_ message: String) -> String {
        String(message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Seconds with three decimals, as JUnit writes them ("0.042").
    static func seconds(_ s: Double) -> String {
        let ms = Int((max(0, s) * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// "2026-12-02T02:18:33" (UTC), JUnit's timestamp.
    static func iso8601(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
