@testable import DownstreamApp
import GestureKit
import GestureTesting
import Testing

@Suite("The photo viewer")
struct PhotoViewerTests {
    // testing-app-tests:begin
    @Test("A double tap on the photo, above the caption, zooms; a single tap hides the caption once the double tap has failed")
    func zoomAndCaption() throws {
        let viewer = PhotoViewer()
        let tester = GestureTester(root: viewer.screen)
        let photo = try tester.view(id: "photo")
        let zoom = try tester.recognizer(named: "zoom")

        try tester.doubleTap(on: photo, at: Point(x: 400, y: 200))
        try tester.requireRecognized(zoom)
        #expect(viewer.isZoomed)

        try tester.settle()
        tester.clearRecords()                              // the checks read from here
        try tester.tap(on: photo, at: Point(x: 400, y: 200))
        try tester.settle()                                // the double tap's 300 ms pass
        try tester.requireStates(try tester.recognizer(named: "toggleCaption"), [.ended])
        #expect(!viewer.isCaptionShown)
    }

    @Test("A tap where the caption covers the photo is refused, naming the caption")
    func captionCoversThePhoto() throws {
        let viewer = PhotoViewer()
        let tester = GestureTester(root: viewer.screen)
        let error = #expect(throws: GestureTestError.self) { try tester.tap(on: viewer.photo, at: Point(x: 400, y: 450)) }
        #expect(error?.description.contains("where view caption would get it") == true)
    }
    // testing-app-tests:end

    // testing-golden:begin
    @Test("A double tap's account is the one kept beside this test")
    func doubleTapAccount() throws {
        let viewer = PhotoViewer()
        let tester = GestureTester(root: viewer.screen)
        try tester.doubleTap(on: viewer.photo, at: Point(x: 400, y: 200))
        try tester.settle()
        // __Accounts__/PhotoViewerTests/double-tap.txt; GESTURE_TESTING_RECORD=all writes it anew
        try tester.requireAccount(matches: "double-tap")
    }
    // testing-golden:end

    // testing-sweep:begin
    @Test("However people double-tap (report rates of 60 to 240 Hz, the measured holds and pauses, jitter), the photo zooms")
    func zoomForEveryone() throws {
        try GestureTester.Sweep(seed: 1, count: 24).run { variation in
            let viewer = PhotoViewer()
            let tester = GestureTester(root: viewer.screen, variation: variation)
            try tester.doubleTap(on: viewer.photo, at: Point(x: 400, y: 200))
            try tester.requireRecognized(try tester.recognizer(named: "zoom"))
        }
    }

    @Test("Every sweep variation pinches the photo to twice its size", arguments: GestureTester.Sweep(seed: 2, count: 8).variations)
    func pinchForEveryone(variation: GestureTester.Variation) throws {
        let viewer = PhotoViewer()
        let tester = GestureTester(root: viewer.screen, variation: variation)
        try tester.pinch(on: viewer.photo, at: Point(x: 400, y: 200), scale: 2)
        #expect(abs(viewer.scale - 2) < 0.05)
    }
    // testing-sweep:end
}
