import DownstreamApp
import GestureKit
import GestureTesting
import Testing

@Test("The caption hides 3 s after the last touch, on the tester's clock: await settle() waits for the app's timer")
@MainActor
func captionHidesOnTheTestersClock() async throws {
    // testing-app-clock:begin
    let viewer = PhotoViewer()
    let tester = GestureTester(root: viewer.screen)
    let autoHide = CaptionAutoHide(clock: tester.clock)  // the app's timer, on virtual time
    try tester.tap(on: viewer.photo, at: Point(x: 400, y: 200))
    autoHide.touched()
    await Task.yield()                                 // its timer starts sleeping
    try await tester.wait(.seconds(2))
    #expect(autoHide.isShown)
    try await tester.settle()                          // runs the clock to the timer's end
    #expect(!autoHide.isShown)
    #expect(tester.now == Instant(seconds: 3.08))      // 3 s after the tap's lift
    // testing-app-clock:end
}
