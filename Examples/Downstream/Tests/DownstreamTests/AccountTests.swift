import GestureKit
import GestureTesting
import Testing

@Test("When a double tap is made where a single tap was expected, the failure says the double tap recognized first")
func accountOfAFailedExpectation() throws {
    let (photo, doubleTap, singleTap) = photoWithTaps()
    // testing-account:begin
    let tester = GestureTester(root: photo)
    try tester.doubleTap(on: photo)
    try tester.requireRecognized(doubleTap)
    // What `try tester.requireRecognized(singleTap)` would report at its line:
    let failure = tester.failure(of: .recognized(singleTap))
    #expect(failure?.description == """
        expected singleTap to recognize; it did not
        what the recognizers did:
        singleTap: possible at 0.080000 s, waiting for doubleTap to fail
        doubleTap: possible → ended at 0.300000 s: 2 taps of 1 touch completed \
        (held 80 of 500 ms allowed; moved 0 of 10 pt allowed; second tap 140 of 300 ms allowed)
        singleTap: possible → failed at 0.300000 s: doubleTap recognized first \
        (held 80 of 500 ms allowed; moved 0 of 10 pt allowed)
        """)
    // testing-account:end
}
