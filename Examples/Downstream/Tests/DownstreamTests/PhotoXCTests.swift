import GestureKit
import GestureTesting
import XCTest

final class PhotoGestureTests: XCTestCase {
    func testDoubleTapZoomsAndSingleTapWaitsForIt() throws {
        let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
        let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
        let singleTap = TapGestureRecognizer(name: "singleTap")
        singleTap.require(toFail: doubleTap)
        photo.addGestureRecognizer(doubleTap)
        photo.addGestureRecognizer(singleTap)
        let tester = GestureTester(root: photo)

        try tester.doubleTap(on: photo)
        try tester.settle()
        try tester.requireRecognized(doubleTap)        // throws, with the account, if not
        try tester.requireNotRecognized(singleTap)

        tester.clearRecords()
        try tester.tap(on: photo)
        XCTAssertFalse(tester.recognized(singleTap), "it waits for the double tap")
        try tester.settle()
        XCTAssertEqual(tester.states(of: singleTap), [.ended])
    }
}
