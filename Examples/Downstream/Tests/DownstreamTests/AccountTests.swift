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
    let error = #expect(throws: GestureTestError.self) { try tester.requireRecognized(singleTap) }
    #expect(error?.description == """
        expected singleTap to recognize; it did not
        what the recognizers did:
        singleTap: possible at 0.050000 s, waiting for doubleTap to fail
        doubleTap: possible → ended at 0.200000 s: 2 taps of 1 touch completed
        singleTap: possible → failed at 0.200000 s: doubleTap recognized first
        """)
    // testing-account:end
}
