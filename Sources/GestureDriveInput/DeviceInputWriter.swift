import GestureKit
import GestureTesting
import GestureTraces

/// Writes one device's input for a driven app: gestures in GestureTesting's vocabulary, with
/// its realistic defaults (tap hold, pauses, finger spacing, report rate: the device's), aimed
/// at points of the app's window, as that device's evdev frames.
///
/// The gestures are made by a `GestureTester` whose screen is the window (its points are the
/// window's), on a fresh virtual clock for each call: a gesture's first event is at zero.
/// What the tester sends its engine (touch frames, pen events, pointer events) is taken on the
/// way, moved by the window's origin onto the output, and written by the device's encoder;
/// the engine itself has no views and no recognizers, so a default that reads recognizers
/// (a tap's hold at most half a tap recognizer's limit) takes GestureTesting's measured figure.
/// The encoders keep their state between calls (tracking ids, the pen's proximity, the
/// pointer's position), as the device would.
package final class DeviceInputWriter {
    package enum Failure: Error, CustomStringConvertible, Equatable {
        case wrongDevice(gesture: String, device: VirtualDevice.Kind, needs: String)

        package var description: String {
            switch self {
            case let .wrongDevice(gesture, device, needs):
                return "a \(gesture) cannot be made on the \(device.rawValue): it needs \(needs)"
            }
        }
    }

    package let device: VirtualDevice
    /// The output the device covers, in logical points.
    package let output: Size
    private var touchscreen: TouchscreenEncoder?
    private var pen: PenEncoder?
    private var mouse: MouseEncoder?
    private var touchpad: TouchpadEncoder?

    package init(device: VirtualDevice, output: Size) {
        self.device = device
        self.output = output
        switch device.kind {
        case .touchscreen: touchscreen = TouchscreenEncoder(device: device, output: output)
        case .pen: pen = PenEncoder(device: device, output: output)
        case .mouse: mouse = MouseEncoder(device: device, output: output)
        case .touchpad: touchpad = TouchpadEncoder(device: device)
        }
    }

    /// Points of the output a millimetre of the device is (a direct device's size over the
    /// output's), or nil where the device does not say its size.
    package var pointsPerMillimetre: Double? {
        guard device.kind == .touchscreen || device.kind == .pen, let size = device.sizeMillimetres, size.width > 0 else { return nil }
        return output.width / size.width
    }

    /// Where the pointer is, for the mouse (once it has moved).
    package var pointerPosition: Point? { mouse?.position }

    /// The evdev events of the gestures `body` makes on a tester whose screen is `window` (in
    /// output points), times from the first gesture's start.
    package func gestures(in window: Rect, variation: GestureTester.Variation = .typical,
                         _ body: (GestureTester) throws -> Void) throws -> [EvdevEvent] {
        let root = View(frame: Rect(x: 0, y: 0, width: window.width, height: window.height))
        let tester = GestureTester(root: root)
        var v = variation
        v.sampleRate = device.reportRate
        tester.variation = v
        tester.touchscreenPointsPerMillimetre = pointsPerMillimetre
        var events: [EvdevEvent] = []
        var failure: Failure?
        let origin = window.origin
        tester.inputObserver = { [self] event in
            guard failure == nil else { return }
            switch event {
            case var .touchFrame(frame):
                guard touchscreen != nil else {
                    failure = .wrongDevice(gesture: "touch", device: device.kind, needs: "a touchscreen")
                    return
                }
                frame.changes = frame.changes.map { var c = $0; c.location = c.location + origin; return c }
                events += touchscreen!.encode(frame)
            case var .pen(penEvent):
                guard pen != nil else {
                    failure = .wrongDevice(gesture: "pen stroke", device: device.kind, needs: "a pen tablet")
                    return
                }
                penEvent.location = penEvent.location + origin
                events += pen!.encode(penEvent)
            case var .pointer(pointerEvent):
                guard mouse != nil else {
                    failure = .wrongDevice(gesture: "pointer gesture", device: device.kind, needs: "a mouse")
                    return
                }
                guard pointerEvent.scrollType != .continuous || pointerEvent.kind != .scroll else {
                    failure = .wrongDevice(gesture: "touchpad scroll", device: device.kind,
                                           needs: "a touchpad's fingers (DriveSession's touchpad gestures)")
                    return
                }
                pointerEvent.location = pointerEvent.location + origin
                events += mouse!.encode(pointerEvent)
            case .touchpadGesture:
                failure = .wrongDevice(gesture: "touchpad gesture", device: device.kind,
                                       needs: "a touchpad's fingers (DriveSession's touchpad gestures, TouchpadGestures)")
            case .modifiers:
                failure = .wrongDevice(gesture: "modifier key", device: device.kind, needs: "a keyboard, which drive has not")
            default:
                break
            }
        }
        try body(tester)
        if let failure { throw failure }
        return events
    }

    /// The touchscreen's evdev events for `frame` (output points), through the encoder the
    /// gestures use (none on another device).
    package func encodeTouches(_ frame: TouchFrame) -> [EvdevEvent] {
        touchscreen?.encode(frame) ?? []
    }

    /// Touches the touchscreen dropped so far because every slot was taken.
    package var droppedTouches: Int { touchscreen?.droppedTouches ?? 0 }

    /// Events were sent to the touchscreen around its encoder (a recording as recorded): the
    /// slot it last selected is no longer known, and its next frame selects its own.
    package func touchscreenSlotUnknown() {
        touchscreen?.forgetSelectedSlot()
    }

    /// The evdev events of touchpad reports (`TouchpadGestures`).
    package func touchpadEvents(_ frames: [PadFrame]) throws -> [EvdevEvent] {
        guard touchpad != nil else {
            throw Failure.wrongDevice(gesture: "touchpad gesture", device: device.kind, needs: "a touchpad")
        }
        return frames.flatMap { touchpad!.encode($0) }
    }
}
