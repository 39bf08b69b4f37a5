import GestureKit
import GestureTesting
import Testing

@Test("A double tap zooms; a single tap waits for the double tap to fail, then selects")
func doubleTapZoomsSingleTapSelects() throws {
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
    let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
    let singleTap = TapGestureRecognizer(name: "singleTap")
    singleTap.require(toFail: doubleTap)
    photo.addGestureRecognizer(doubleTap)
    photo.addGestureRecognizer(singleTap)
    let tester = GestureTester(root: photo)

    try tester.doubleTap(on: photo)
    try tester.settle()
    try tester.requireRecognized(doubleTap)
    try tester.requireNotRecognized(singleTap)

    tester.clearRecords()
    try tester.tap(on: photo)
    #expect(!tester.recognized(singleTap), "it waits for the double tap")
    try tester.settle()    // the double tap's 0.3 s interval runs out: it fails
    try tester.requireRecognized(singleTap)
}
