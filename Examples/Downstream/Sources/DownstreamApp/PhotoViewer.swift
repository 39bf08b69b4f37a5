import GestureKit

/// A photo viewer as an app writes one: a photo with a caption bar over its lower edge; a
/// double tap zooms, a single tap (once the double tap has failed) shows or hides the
/// caption, a pinch scales. Each recognizer has a name, which tests find it by and the
/// account prints, and an action that changes the model.
public final class PhotoViewer {
    public let screen = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480))
    public let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 800, height: 480))
    public let caption = View(id: "caption", frame: Rect(x: 0, y: 420, width: 800, height: 60))
    public private(set) var isZoomed = false
    public private(set) var isCaptionShown = true
    public private(set) var scale = 1.0

    public init() {
        screen.addSubview(photo)
        screen.addSubview(caption)
        let zoom = TapGestureRecognizer(taps: 2, name: "zoom")
        zoom.addTarget { [unowned self] _ in isZoomed.toggle() }
        let toggleCaption = TapGestureRecognizer(name: "toggleCaption")
        toggleCaption.require(toFail: zoom)
        toggleCaption.addTarget { [unowned self] _ in isCaptionShown.toggle() }
        let pinch = PinchGestureRecognizer(name: "pinch")
        pinch.addTarget { [unowned self] in scale = $0.scale }
        for recognizer in [zoom, toggleCaption, pinch] as [GestureRecognizer] { photo.addGestureRecognizer(recognizer) }
    }
}
