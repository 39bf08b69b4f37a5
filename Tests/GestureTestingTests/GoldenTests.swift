import Foundation
import GestureKit
import GestureTesting
import Testing

/// Every test of the record mode sets GESTURE_TESTING_RECORD, which the whole process reads:
/// they run one after another.
@Suite("Account goldens: the account compared with a file beside the test, recorded when asked", .serialized)
struct GoldenTests {
    static func doubleTapped() throws -> GestureTester {
        let (photo, _, _) = FailureReportTests.photo()
        let tester = GestureTester(root: photo)
        try tester.doubleTap(on: photo)
        try tester.settle()
        return tester
    }

    @Test("A double tap's account is its golden, kept in __Accounts__/GoldenTests/double-tap.txt")
    func matchesTheGolden() throws {
        let tester = try Self.doubleTapped()
        try tester.requireAccount(matches: "double-tap")
        #expect(GestureTester.goldenPath("double-tap", filePath: #filePath).hasSuffix("Tests/GestureTestingTests/__Accounts__/GoldenTests/double-tap.txt"))
    }

    /// A fresh temporary directory, for goldens of its own.
    static func scratchDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("goldens-\(UUID().uuidString)").path
    }

    static func issues(_ body: () throws -> Void) -> [String] {
        recordedIssues(body).map { $0.comments.map(\.rawValue).joined(separator: "\n") }
    }

    @Test("A missing golden is written and the check fails saying so; the next run matches; a different account fails with the lines that differ")
    func missingThenMismatch() throws {
        unsetenv("GESTURE_TESTING_RECORD")
        let dir = Self.scratchDirectory()
        let tester = try Self.doubleTapped()
        let first = Self.issues { try tester.requireAccount(matches: "taps", directory: dir) }
        #expect(first.count == 1 && first[0].contains("was recorded (there was no golden)"), "\(first)")
        let path = GestureTester.goldenPath("taps", filePath: #filePath, directory: dir)
        #expect(try String(contentsOfFile: path) == tester.account + "\n")
        try tester.requireAccount(matches: "taps", directory: dir)
        try tester.tap(at: Point(x: 10, y: 10))
        try tester.settle()
        let mismatch = Self.issues { try tester.requireAccount(matches: "taps", directory: dir) }
        #expect(mismatch.count == 1 && mismatch[0].contains("the account differs from its golden file \(path)"), "\(mismatch)")
        #expect(mismatch.first?.contains("\n+ singleTap: possible → ended at") == true, "the new line is marked +: \(mismatch)")
    }

    @Test("GESTURE_TESTING_RECORD=all writes the golden anew and fails saying so; =never refuses to write a missing one")
    func recordModes() throws {
        defer { unsetenv("GESTURE_TESTING_RECORD") }
        let dir = Self.scratchDirectory()
        let tester = try Self.doubleTapped()
        setenv("GESTURE_TESTING_RECORD", "never", 1)
        let never = Self.issues { try tester.requireAccount(matches: "taps", directory: dir) }
        #expect(never.first?.contains("GESTURE_TESTING_RECORD=never writes none") == true, "\(never)")
        #expect(!FileManager.default.fileExists(atPath: GestureTester.goldenPath("taps", filePath: #filePath, directory: dir)))
        setenv("GESTURE_TESTING_RECORD", "all", 1)
        let all = Self.issues { try tester.requireAccount(matches: "taps", directory: dir) }
        #expect(all.first?.contains("was recorded (GESTURE_TESTING_RECORD=all)") == true, "\(all)")
        unsetenv("GESTURE_TESTING_RECORD")
        try tester.requireAccount(matches: "taps", directory: dir)
    }
}
