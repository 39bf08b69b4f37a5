import GestureKit
import GestureTesting
import Testing

@Test("Two taps in a row are a double tap; with a wait longer than its interval between them, they are two single taps")
func tapsFollowOneAnother() throws {
    let (photo, doubleTap, singleTap) = photoWithTaps()
    // testing-clock:begin
    let tester = GestureTester(root: photo)
    try tester.tap(on: photo)
    #expect(tester.now == Instant(seconds: 0.08))      // down at 0, up 80 ms later
    #expect(tester.pending == ["doubleTap's deadline at 0.380000 s"])
    try tester.tap(on: photo)                          // 140 ms later: a double tap
    try tester.settle()
    try tester.requireRecognized(doubleTap)

    tester.clearRecords()
    try tester.tap(on: photo)
    try tester.wait(.milliseconds(400))                    // longer than the 300 ms interval
    try tester.tap(on: photo)
    try tester.settle()
    #expect(tester.states(of: singleTap) == [.ended, .ended])
    // testing-clock:end
}
