import GestureKit

/// Account goldens: a gesture's account compared with a file kept beside the test, as
/// snapshot-testing compares snapshots. The file is
/// `__Accounts__/<test file>/<name>.txt` in the test file's directory. The record mode
/// (`GESTURE_TESTING_RECORD`):
///
/// - unset or `missing`: a golden that does not exist yet is written, and the check fails
///   saying so (check it in and run again); an existing one is compared;
/// - `all` (or `1`): every golden is written anew and the check fails saying so (turn it off
///   and run again);
/// - `failed`: a golden that differs is written anew, and the check fails saying so;
/// - `never`: nothing is written; a missing golden fails (for CI).
extension GestureTester {
    /// The record mode from `GESTURE_TESTING_RECORD`.
    enum RecordMode: String {
        case missing, all, failed, never
        static var current: RecordMode {
            switch FileIO.environment("GESTURE_TESTING_RECORD")?.lowercased() {
            case nil, "", "missing": .missing
            case "all", "1", "true", "yes": .all
            case "failed": .failed
            default: .never
            }
        }
    }

    /// The path of the golden `name` of the test file at `filePath`: in `directory` when
    /// given, else in the test file's directory.
    public static func goldenPath(_ name: String, filePath: String, directory: String? = nil) -> String {
        let slash = filePath.lastIndex(of: "/")
        let folder = directory ?? slash.map { String(filePath[..<$0]) } ?? "."
        var file = slash.map { String(filePath[filePath.index(after: $0)...]) } ?? filePath
        if file.hasSuffix(".swift") { file.removeLast(6) }
        return "\(folder)/__Accounts__/\(file)/\(name).txt"
    }

    /// Fails the test at the calling line unless the account (of `recognizer`, or of every
    /// recognizer) is the golden `name` beside the test file (or under `directory`), line for
    /// line; the failure shows the lines that differ. See the record mode above.
    public func requireAccount(matches name: String, of recognizer: GestureRecognizer? = nil, directory: String? = nil,
                               fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
                               column: UInt = #column) throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let got = (recognizer.map { account(of: $0) } ?? account) + "\n"
        let path = GestureTester.goldenPath(name, filePath: site.filePath, directory: directory)
        let mode = RecordMode.current
        let existing = try FileIO.read(path)
        if existing == got && mode != .all { return }
        switch (existing, mode) {
        case (nil, .never):
            try report(.invalidParameter(parameter: "matches", value: "\"\(name)\"",
                                         why: "has no golden at \(path), and GESTURE_TESTING_RECORD=never writes none"), at: site)
        case (nil, _), (_, .all), (_, .failed):
            try FileIO.write(got, to: path)
            let what = mode == .all || (mode == .failed && existing != nil) ? "GESTURE_TESTING_RECORD=\(mode.rawValue)" : "there was no golden"
            try report(.invalidParameter(parameter: "matches", value: "\"\(name)\"",
                                         why: "was recorded (\(what)): \(path); check it and run again"), at: site)
        case let (expected?, _):
            try report(.accountMismatch(golden: path, expected: expected, got: got), at: site)
        }
    }
}

/// The lines of two accounts that differ, as a unified diff's lines: "-" expected, "+" got,
/// with the equal lines around them.
func accountDifference(expected: String, got: String) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = got.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The longest common subsequence of lines (accounts are short).
    var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
        for j in stride(from: b.count - 1, through: 0, by: -1) {
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
        }
    }
    var out: [String] = []
    var i = 0, j = 0
    while i < a.count || j < b.count {
        if i < a.count, j < b.count, a[i] == b[j] {
            out.append("  " + a[i]); i += 1; j += 1
        } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
            out.append("+ " + b[j]); j += 1
        } else {
            out.append("- " + a[i]); i += 1
        }
    }
    return out.joined(separator: "\n")
}
