import GestureKit
import GestureTestSupport
import Testing

/// UIKit's `init(target:action:)`, which every recognizer inherits from one definition: the
/// target's method is called with the recognizer, a built-in made that way is the same as one
/// made with its own initializers, and an action of the wrong class is stopped at once.
@Suite("init(target:action:), on every recognizer")
struct TargetActionTests {
    final class Controller {
        var taps: [TapGestureRecognizer] = []
        func tapped(_ tap: TapGestureRecognizer) { taps.append(tap) }
        func any(_ recognizer: GestureRecognizer) {}
        func longPressed(_ press: LongPressGestureRecognizer) {}
        func panned(_ pan: PanGestureRecognizer) {}
        func pinched(_ pinch: PinchGestureRecognizer) {}
        func rotated(_ rotation: RotationGestureRecognizer) {}
        func swiped(_ swipe: SwipeGestureRecognizer) {}
        func edgePanned(_ pan: ScreenEdgePanGestureRecognizer) {}
        func hovered(_ hover: HoverGestureRecognizer) {}
    }

    @Test func aTapMadeWithTargetAndActionCallsTheTargetsMethodWithIt() {
        let h = Harness()
        let controller = Controller()
        let tap = h.add(TapGestureRecognizer(target: controller, action: Controller.tapped))
        h.tap(at: 0)
        h.finish()
        #expect(controller.taps.count == 1, "one tap calls the controller's method once")
        #expect(controller.taps.first === tap, "the method is handed the recognizer itself")
    }

    @Test func everyBuiltInMadeWithTargetAndActionIsTheSameAsOneMadeWithItsOwnInitializer() {
        let c = Controller()
        let pairs: [(GestureRecognizer, GestureRecognizer)] = [
            (TapGestureRecognizer(target: c, action: Controller.tapped), TapGestureRecognizer()),
            (LongPressGestureRecognizer(target: c, action: Controller.longPressed), LongPressGestureRecognizer()),
            (PanGestureRecognizer(target: c, action: Controller.panned), PanGestureRecognizer()),
            (PinchGestureRecognizer(target: c, action: Controller.pinched), PinchGestureRecognizer()),
            (RotationGestureRecognizer(target: c, action: Controller.rotated), RotationGestureRecognizer()),
            (SwipeGestureRecognizer(target: c, action: Controller.swiped), SwipeGestureRecognizer()),
            (ScreenEdgePanGestureRecognizer(target: c, action: Controller.edgePanned), ScreenEdgePanGestureRecognizer(edges: [])),
            (HoverGestureRecognizer(target: c, action: Controller.hovered), HoverGestureRecognizer(action: { _ in })),
        ]
        for (made, plain) in pairs {
            #expect(type(of: made) == type(of: plain))
            #expect(made.allowedTouchTypes == plain.allowedTouchTypes,
                    "\(type(of: made)) made with a target allows the touch types its own initializer allows")
            #expect(made.kind == plain.kind)
        }
        #expect(ScreenEdgePanGestureRecognizer(target: c, action: Controller.edgePanned).allowedTouchTypes == .direct,
                "a screen edge pan takes direct touches only, however it is made")
        #expect(HoverGestureRecognizer(target: c, action: Controller.hovered).allowedTouchTypes.isEmpty,
                "touches never hover")
    }

    @Test func anActionTakingABaseClassIsAccepted() {
        let c = Controller()
        let pan = PanGestureRecognizer(target: c, action: Controller.any)
        #expect(pan.kind == .continuous)
    }

    @Test func anActionOfAnotherRecognizerClassStopsTheProgramNamingBoth() async {
        await #expect(processExitsWith: .failure) {
            let c = Controller()
            _ = PanGestureRecognizer(target: c, action: Controller.tapped)
        }
    }
}
