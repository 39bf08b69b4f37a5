import GestureKit
import GestureTesting
import GestureTestingTraces
import Testing

@Test("A double tap recorded on a real touchscreen zooms the photo")
func recordedDoubleTap() throws {
    let recording = fixture("ts-wacom-isdv4-e6-double-tap-1f.evemu")
    // testing-replay:begin
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
    let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
    photo.addGestureRecognizer(doubleTap)
    let tester = GestureTester(root: photo)

    try tester.replay(recording: recording)            // evemu, libinput record, debug-events
    try tester.requireRecognized(doubleTap)
    // testing-replay:end
}
