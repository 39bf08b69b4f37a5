import GestureKit
import GestureLayout
import GestureTesting
import Testing

/// A photo with a caption bar over its lower part, and a list beside it.
final class CaptionedPhoto {
    let root = View(id: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let photo = View(id: "photo", frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let caption = View(id: "caption", frame: Rect(x: 0, y: 240, width: 400, height: 60))
    let list = ScrollView(id: "photoList", frame: Rect(x: 400, y: 0, width: 400, height: 600))
    let zoom = TapGestureRecognizer(taps: 2, name: "zoom")
    let pinch = PinchGestureRecognizer(name: "pinch")

    init() {
        root.addSubview(photo)
        root.addSubview(caption)
        root.addSubview(list)
        list.contentSize = Size(width: 400, height: 3000)
        photo.addGestureRecognizer(zoom)
        photo.addGestureRecognizer(pinch)
    }
}

@Suite("Finders: a view by id or predicate, a recognizer by name, near misses named")
struct FinderTests {
    @Test("A view by its id and a recognizer by its name are found, and a gesture aims at what was found")
    func findAndUse() throws {
        let app = CaptionedPhoto()
        let tester = GestureTester(root: app.root)
        let photo = try tester.view(id: "photo")
        #expect(photo === app.photo)
        let zoom = try tester.recognizer(named: "zoom", as: TapGestureRecognizer.self)
        try tester.doubleTap(on: photo)
        try tester.requireRecognized(zoom)
        let list = try tester.view(ScrollView.self, where: { $0.contentSize.height > 1000 }, description: "a long list")
        #expect(list === app.list)
    }

    @Test("A misspelt id or name throws, naming the near misses")
    func nearMisses() throws {
        let tester = GestureTester(root: CaptionedPhoto().root)
        let view = #expect(throws: GestureTestError.self) { try tester.view(id: "phot") }
        #expect(view?.description == "no view has the id \"phot\"; near misses: \"photo\", \"photoList\" (4 views in the tree, 4 with ids)",
                "\(String(describing: view))")
        let recognizer = #expect(throws: GestureTestError.self) { try tester.recognizer(named: "Zoom") }
        #expect(recognizer?.description.contains("near misses: \"zoom\"") == true, "\(String(describing: recognizer))")
        let type = #expect(throws: GestureTestError.self) { try tester.recognizer(named: "zoom", as: PinchGestureRecognizer.self) }
        #expect(type?.description == "the recognizer named \"zoom\" is a TapGestureRecognizer, not a PinchGestureRecognizer")
        let none = #expect(throws: GestureTestError.self) { try tester.view(where: { $0.isHidden }, description: "a hidden view") }
        #expect(none?.description.hasPrefix("no view of type View matches a hidden view") == true)
    }

    @Test("Two views with one id are named, with their frames")
    func duplicateIDs() throws {
        let app = CaptionedPhoto()
        app.root.addSubview(View(id: "photo", frame: Rect(x: 0, y: 400, width: 10, height: 10)))
        let tester = GestureTester(root: app.root)
        let error = #expect(throws: GestureTestError.self) { try tester.view(id: "photo") }
        #expect(error?.description.hasPrefix("2 views have the id \"photo\": photo at [0, 0, 400 × 300], photo at [0, 400, 10 × 10]") == true,
                "\(String(describing: error))")
    }
}

@Suite("Aiming at a point inside a view, and desktop gestures aimed with the same covered-view check")
struct AimInsideTests {
    @Test("A tap aimed at the photo's top part lands; at its bottom, under the caption, it is refused, naming the caption")
    func pointInsideAView() throws {
        let app = CaptionedPhoto()
        let tester = GestureTester(root: app.root)
        try tester.doubleTap(on: app.photo, at: Point(x: 200, y: 100))
        try tester.requireRecognized(app.zoom)
        let covered = #expect(throws: GestureTestError.self) { try tester.tap(on: app.photo, at: Point(x: 200, y: 270)) }
        #expect(covered?.description.contains("where view caption would get it") == true, "\(String(describing: covered))")
        let outside = #expect(throws: GestureTestError.self) { try tester.tap(on: app.photo, at: Point(x: 500, y: 10)) }
        #expect(outside?.description.contains("is outside view photo") == true, "\(String(describing: outside))")
    }

    @Test("Touchpad, pen and wheel gestures aimed at a covered point are refused; aimed at the view, they reach it")
    func desktopAimed() throws {
        let app = CaptionedPhoto()
        let ink = PanGestureRecognizer(name: "ink")
        ink.allowedTouchTypes = .pencil
        app.photo.addGestureRecognizer(ink)
        let tester = GestureTester(root: app.root)
        #expect(throws: GestureTestError.self) { try tester.touchpadPinch(on: app.photo, at: Point(x: 200, y: 270), scale: 2) }
        #expect(throws: GestureTestError.self) { try tester.penStroke(on: app.photo, along: [Point(x: 10, y: 270), Point(x: 200, y: 280)]) }
        #expect(throws: GestureTestError.self) { try tester.scrollWheel(.down, on: app.photo, at: Point(x: 10, y: 250)) }
        #expect(!tester.hasSentInput)
        try tester.touchpadPinch(on: app.photo, scale: 1.5)
        try tester.requireRecognized(app.pinch)
        try tester.penStroke(on: app.photo)
        try tester.requireRecognized(ink)
        try tester.touchpadSwipe(on: app.photo, by: Point(x: 100, y: 0))
        try tester.touchpadHold(on: app.photo)
    }
}
