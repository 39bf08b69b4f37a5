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
