@testable import DownstreamApp
import GestureKit
import GestureTesting
import Testing

@Suite("The checkmark recognizer")
struct CheckmarkTests {
    let canvas = View(id: "canvas", frame: Rect(x: 0, y: 0, width: 400, height: 400))
    let checkmark = CheckmarkGestureRecognizer(name: "checkmark")

    init() { canvas.addGestureRecognizer(checkmark) }

    @Test("A checkmark drawn with one finger, a stroke down and a longer one up, is recognized")
    func drawnCheckmark() throws {
        let tester = GestureTester(root: canvas)
        try tester.drag(along: [Point(x: 100, y: 100), Point(x: 130, y: 130), Point(x: 190, y: 50)])
        try tester.requireRecognized(checkmark)
    }

    @Test("A straight line is not a checkmark, and the account says why")
    func straightLineFails() throws {
        let tester = GestureTester(root: canvas)
        try tester.drag(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100))
        try tester.requireNotRecognized(checkmark)
        #expect(tester.account(of: checkmark) == "checkmark: possible → failed at 0.348333 s: no long stroke up")
    }
}
