import GestureKit
import GestureLayout
import Testing
import GestureTestSupport

/// Every public kind of object is built, used for a gesture, released, and checked gone through
/// a weak reference: nothing GestureKit makes keeps its owner alive (closures capturing their
/// owners, targets, delegates, display links, scroll views and their pans, collection views and
/// their cells). An app that opens and closes views would otherwise lose their memory each time.
@Suite("Lifetimes")
struct LifetimeTests {
    /// Frames on virtual time that engage every kind: a tap, a long press, a two-finger pinch
    /// that turns, a swipe in from the left edge, and a hover of the pointer, in a 400×800 view.
    static func everyGesture(_ engine: GestureEngine) {
        func send(_ t: Double, _ changes: [(Int, TouchPhase, Double, Double)]) {
            engine.send(TouchFrame(time: Instant(seconds: t), changes: changes.map {
                TouchChange(sourceID: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3))
            }))
        }
        send(0.00, [(1, .began, 200, 400)])
        send(0.05, [(1, .ended, 200, 400)])
        send(1.00, [(2, .began, 200, 400)])
        engine.advance(to: Instant(seconds: 1.8))
        send(1.90, [(2, .ended, 200, 400)])
        send(3.00, [(3, .began, 150, 400), (4, .began, 250, 400)])
        for i in 1...10 {
            let d = 50 + 8 * Double(i), turn = 6 * Double(i)
            send(3.0 + 0.02 * Double(i), [(3, .moved, 200 - d, 400 - turn), (4, .moved, 200 + d, 400 + turn)])
        }
        send(3.30, [(3, .ended, 80, 340), (4, .ended, 320, 460)])
        send(4.00, [(5, .began, 2, 300)])
        for i in 1...6 { send(4.0 + 0.016 * Double(i), [(5, .moved, 2 + 40 * Double(i), 300)]) }
        send(4.12, [(5, .ended, 242, 300)])
        for i in 0...5 {
            engine.send(PointerEvent.motion(to: Point(x: 100 + 20 * Double(i), y: 100), at: Instant(seconds: 5 + 0.02 * Double(i))))
        }
        engine.finish()
    }

    /// A one-finger flick up a 400×800 scroll view, lifted at 0.11 s, and the engine advanced to
    /// 0.3 s: the content is mid-fling.
    static func fling(_ engine: GestureEngine) {
        engine.send(TouchFrame(time: .zero, changes: [TouchChange(sourceID: 1, phase: .began, location: Point(x: 200, y: 700))]))
        for i in 1...6 {
            engine.send(TouchFrame(time: Instant(seconds: 0.016 * Double(i)), changes: [
                TouchChange(sourceID: 1, phase: .moved, location: Point(x: 200, y: 700 - 60 * Double(i))),
            ]))
        }
        engine.send(TouchFrame(time: Instant(seconds: 0.11), changes: [
            TouchChange(sourceID: 1, phase: .ended, location: Point(x: 200, y: 340)),
        ]))
        engine.advance(to: Instant(seconds: 0.3))
    }

    static let kinds: [String] = ["tap", "longPress", "pan", "pinch", "rotation", "swipe", "screenEdgePan", "hover"]

    static func make(_ kind: String, acted: @escaping () -> Void) -> GestureRecognizer {
        switch kind {
        case "tap": return TapGestureRecognizer { _ in acted() }
        case "longPress": return LongPressGestureRecognizer { _ in acted() }
        case "pan": return PanGestureRecognizer { _ in acted() }
        case "pinch": return PinchGestureRecognizer { _ in acted() }
        case "rotation": return RotationGestureRecognizer { _ in acted() }
        case "swipe": return SwipeGestureRecognizer(direction: .right) { _ in acted() }
        case "screenEdgePan": return ScreenEdgePanGestureRecognizer(edges: .left) { _ in acted() }
        default: return HoverGestureRecognizer { _ in acted() }
        }
    }

    @Test("an engine, its view and a recognizer of each kind are freed once used and released", arguments: kinds)
    func recognizer(_ kind: String) {
        weak var engine: GestureEngine?
        weak var view: View?
        weak var recognizer: GestureRecognizer?
        var actions = 0
        do {
            let e = GestureEngine()
            let v = View(id: "photo", frame: Rect(x: 0, y: 0, width: 400, height: 800))
            e.addRoot(v)
            // A target that reads the view, as apps' do (holding it weakly, as in UIKit).
            let r = Self.make(kind) { actions += 1 }
            r.addTarget { [weak v] r in _ = r.location(in: v) }
            v.addGestureRecognizer(r)
            Self.everyGesture(e)
            (engine, view, recognizer) = (e, v, r)
        }
        #expect(actions > 0, "the \(kind) recognizer acted on the gestures")
        #expect(recognizer == nil, "the \(kind) recognizer is freed")
        #expect(view == nil, "the view is freed")
        #expect(engine == nil, "the engine is freed")
    }

    @Test("a scroll view, its pan, pinch and display link are freed after a fling, and in the middle of one")
    func scrollView() {
        for midFling in [false, true] {
            weak var engine: GestureEngine?
            weak var scroll: ScrollView?
            weak var pan: PanGestureRecognizer?
            weak var pinch: PinchGestureRecognizer?
            weak var link: DisplayLink?
            do {
                let e = GestureEngine()
                let s = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 800))
                s.contentSize = Size(width: 400, height: 8000)
                s.maximumZoomScale = 3
                e.addRoot(s)
                Self.fling(e)
                #expect(s.isDecelerating && s.displayLink != nil, "the flick flings the content on a display link")
                if !midFling { e.finish() }
                (engine, scroll, pan, pinch, link) = (e, s, s.panGestureRecognizer, s.pinchGestureRecognizer, s.displayLink)
            }
            #expect(scroll == nil && pan == nil && pinch == nil, "the scroll view and its recognizers are freed (mid-fling: \(midFling))")
            #expect(link == nil, "the display link is freed (mid-fling: \(midFling))")
            #expect(engine == nil, "the engine is freed (mid-fling: \(midFling))")
        }
    }

    @Test("a scroll view taken off screen and released mid-fling, while its engine lives on, stops its animation: the display link is freed and the engine asks for no more frames")
    func scrollViewReleasedWhileDecelerating() {
        let engine = GestureEngine()
        weak var scroll: ScrollView?
        weak var link: DisplayLink?
        do {
            let s = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 800))
            s.contentSize = Size(width: 400, height: 8000)
            engine.addRoot(s)
            Self.fling(engine)
            #expect(s.isDecelerating && engine.nextDeadline != nil, "the flick flings the content, frame by frame")
            engine.removeRoot(s)
            (scroll, link) = (s, s.displayLink)
        }
        #expect(scroll == nil, "the scroll view is freed")
        #expect(link == nil, "its display link is freed with it")
        #expect(engine.nextDeadline == nil, "the engine asks for no frame of an animation whose scroll view is gone")
        engine.finish()
        #expect(engine.now == Instant(seconds: 0.3), "finish() has no frames left to run")
    }

    @Test("a collection view with cells on screen, its layout, cells and model are freed after a scroll, a selection and a reorder",
          arguments: ["flow", "table"])
    func collectionView(_ kind: String) {
        weak var engine: GestureEngine?
        weak var collection: CollectionView?
        weak var layout: CollectionViewLayout?
        weak var model: Model?
        weak var cell: CollectionViewCell?
        do {
            let l: CollectionViewLayout
            if kind == "flow" {
                let flow = FlowLayout(dataSource: nil, boundsSize: .zero)
                flow.itemSize = Size(width: 100, height: 100)
                flow.minimumLineSpacing = 10
                flow.minimumInteritemSpacing = 10
                l = flow
            } else {
                l = TableLayout(style: .plain, dataSource: nil, boundsSize: .zero)
            }
            let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), layout: l)
            let m = Model([200])
            m.attach(cv)
            let script = Harness(root: cv)
            m.clock = { [unowned script] in script.now }
            #expect(!cv.visibleCells.isEmpty, "cells are on screen")
            cell = cv.visibleCells.first
            // A drag up, a tap on an item, a long press that moves it.
            script.down(1, 200, 700, at: 0)
            for i in 1...6 { script.move(1, 200, 700 - 50 * Double(i), at: 0.016 * Double(i)) }
            script.up(1, 200, 400, at: 0.11)
            script.advance(to: 3)
            script.tap(0, 50, 50, at: 3)
            script.down(2, 50, 50, at: 4)
            script.advance(to: 4.8)
            script.move(2, 60, 180, at: 4.9)
            script.up(2, 60, 180, at: 5)
            script.finish()
            #expect(cv.contentOffset.y > 0, "the drag scrolled the content")
            (engine, collection, layout, model) = (script.engine, cv, l, m)
        }
        #expect(cell == nil, "the cells are freed")
        #expect(collection == nil, "the collection view is freed")
        #expect(layout == nil, "the layout is freed")
        #expect(model == nil, "the data source and delegate are freed")
        #expect(engine == nil, "the engine is freed")
    }
}
