import GestureKit
import GestureTesting
import Testing

@Test("A tap aimed at a button under a banner is not made, and the failure names the banner")
func coveredButton() throws {
    // testing-aim:begin
    let screen = View(id: "screen", frame: Rect(x: 0, y: 0, width: 400, height: 400))
    let okButton = View(id: "okButton", frame: Rect(x: 100, y: 100, width: 100, height: 50))
    let banner = View(id: "banner", frame: Rect(x: 0, y: 90, width: 400, height: 80))
    screen.addSubview(okButton)
    screen.addSubview(banner)                          // on top of the button
    let tester = GestureTester(root: screen)

    let error = #expect(throws: GestureTestError.self) { try tester.tap(on: okButton) }
    #expect(error?.description == "a touch aimed at view okButton lands at (150, 125) on the screen, "
        + "where view banner would get it: view banner is on top of it there")
    // testing-aim:end
}
