import GestureKit
import GestureTesting
import XCTest

/// The tester from XCTest, unchanged: its checks throw, and a throwing test method fails with
/// the error's description.
final class XCTestUseTests: XCTestCase {
    func testDoubleTapZoomsFromXCTest() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.doubleTap(on: screen.photo)
        try tester.settle()
        try tester.requireRecognized(screen.doubleTap)
        try tester.requireNotRecognized(screen.singleTap)
        XCTAssertEqual(screen.zooms, 1)
    }

    func testAMissedViewIsAnErrorXCTestReports() {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        screen.photo.isHidden = true
        XCTAssertThrowsError(try tester.tap(on: screen.photo)) { error in
            XCTAssertTrue("\(error)".contains("a touch aimed at view photo"), "\(error)")
        }
    }
}

/// A failed check under XCTest is recorded at the check's own file and line (as `XCTUnwrap`
/// records one), once: this case catches its failures to look at them.
final class XCTestFailureLineTests: XCTestCase {
    private var caught: [(description: String, file: String, line: Int)] = []
    private var catching = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if catching {
            caught.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAFailedCheckIsRecordedAtItsLine() throws {
        let screen = PhotoScreen()
        let tester = GestureTester(root: screen.root)
        try tester.doubleTap(on: screen.photo)
        catching = true
        let line = #line + 1
        let thrown = (try? tester.requireRecognized(screen.singleTap)) == nil
        catching = false
        XCTAssertTrue(thrown, "the check stops the test")
        XCTAssertEqual(caught.count, 1, "\(caught)")
        XCTAssertEqual(caught.first?.line, line)
        XCTAssertTrue(caught.first?.file.hasSuffix("XCTestUseTests.swift") == true, "\(caught)")
        XCTAssertTrue(caught.first?.description.contains("expected singleTap to recognize; it did not") == true, "\(caught)")
        XCTAssertTrue(caught.first?.description.contains("timeline: ") == true, "\(caught)")
    }
}
