import GestureKit
import GestureLibinput

/// A kiosk's photo viewer: the app's own views and recognizers, fed
/// by libinput. No scene and no JSON: the views are the app's, and
/// each recognizer calls one of its methods.
final class PhotoViewer {
    let engine = GestureEngine()
    let photo: View
    private(set) var zoomed = false

    init(screen: Size) {
        photo = View(id: "photo",
                     frame: Rect(origin: .zero, size: screen))
        engine.addRoot(photo)
        let doubleTap = TapGestureRecognizer(
            target: self, action: PhotoViewer.zoom)
        doubleTap.numberOfTapsRequired = 2
        let singleTap = TapGestureRecognizer(
            target: self, action: PhotoViewer.select)
        singleTap.require(toFail: doubleTap)
        let pinch = PinchGestureRecognizer(
            target: self, action: PhotoViewer.scale)
        let press = LongPressGestureRecognizer(
            target: self, action: PhotoViewer.showMenu)
        let all: [GestureRecognizer] =
            [doubleTap, singleTap, pinch, press]
        for recognizer in all {
            photo.addGestureRecognizer(recognizer)
        }
    }

    func zoom(_ tap: TapGestureRecognizer) {
        zoomed.toggle()
        print(zoomed ? "zoom in" : "zoom out")
    }
    func select(_ tap: TapGestureRecognizer) {
        print("select at \(tap.location(in: photo))")
    }
    func scale(_ pinch: PinchGestureRecognizer) {
        if pinch.state == .changed { print("scale \(pinch.scale)") }
    }
    func showMenu(_ press: LongPressGestureRecognizer) {
        guard press.state == .began else { return }
        print("menu at \(press.location(in: photo))")
    }
}

/// Reads libinput into the viewer's engine until Ctrl-C or SIGTERM
/// (or `timeLimit`). libinput's file descriptor and the engine's next
/// deadline wait in one poll, so the double tap's interval and the
/// long press fire on time, with no busy waiting.
///
/// - `devices`: the seat's devices, as a kiosk reads them, or device
///   paths (`.paths(["/dev/input/event5"])`).
/// - `devicesOpened`: called once libinput has opened the devices,
///   before the first event is read (where the tests start their
///   recorded touches).
@discardableResult
func runPhotoViewer(
    devices: LibinputListener.Source = .seat("seat0"),
    screen: Size = Size(width: 1280, height: 800),
    timeLimit: Duration? = nil,
    devicesOpened: (() throws -> Void)? = nil
) throws -> LibinputListener.StopReason {
    let viewer = PhotoViewer(screen: screen)
    // A touchscreen's whole surface maps onto `screen`, in points.
    // Devices are opened through the seat when seatd or logind offers
    // one, else directly (the input group, or root); when the seat's
    // touch devices may not be read, run() throws an error that names
    // the device and the fix.
    var listener = LibinputListener(source: devices, screenSize: screen,
                                    timeLimit: timeLimit)
    listener.access = .automatic
    let input = LiveInput(listener)
    input.onDevicesOpened = devicesOpened
    let reason = try input.run(viewer.engine, notice: { print($0) })
    print("stopped: \(reason)")
    return reason
}
