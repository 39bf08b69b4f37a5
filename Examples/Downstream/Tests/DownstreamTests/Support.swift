import GestureKit

/// The photo of the first test: a double tap, and a single tap that requires it to fail.
func photoWithTaps() -> (photo: View, doubleTap: TapGestureRecognizer, singleTap: TapGestureRecognizer) {
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
    let doubleTap = TapGestureRecognizer(taps: 2, name: "doubleTap")
    let singleTap = TapGestureRecognizer(name: "singleTap")
    singleTap.require(toFail: doubleTap)
    photo.addGestureRecognizer(doubleTap)
    photo.addGestureRecognizer(singleTap)
    return (photo, doubleTap, singleTap)
}

/// A recording of GestureKit's `Fixtures/` (this package sits in GestureKit's `Examples/`).
func fixture(_ name: String) -> String {
    let here = #filePath
    guard let examples = here.range(of: "/Examples/Downstream/") else { return name }
    return here[..<examples.lowerBound] + "/Fixtures/" + name
}
