import GestureKit
import GestureTestSupport
import Testing

/// Drag and drop inside one app (UIKit's `UIDragInteraction` and `UIDropInteraction`): each
/// test names the UIKit rule it checks.
@Suite("Drag and drop")
struct DragAndDropTests {
    /// A screen with a source "a" (a drag interaction), a target "b" (a drop interaction) and
    /// "c" (another drag source), each 200 × 200.
    final class Scene {
        let script = Harness()
        let a = View(id: "a", frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let b = View(id: "b", frame: Rect(x: 600, y: 0, width: 200, height: 200))
        let c = View(id: "c", frame: Rect(x: 0, y: 600, width: 200, height: 200))
        let source = RecordingDragSource()
        let otherSource = RecordingDragSource(uris: ["file:///photos/two.jpg"])
        let target: RecordingDropTarget
        let drag: DragInteraction
        let drop: DropInteraction

        init(proposal: DropOperation = .copy) {
            target = RecordingDropTarget(proposal: proposal)
            for v in [a, b, c] { script.root.addSubview(v) }
            drag = DragInteraction(delegate: source)
            drop = DropInteraction(delegate: target)
            a.addInteraction(drag)
            b.addInteraction(drop)
            c.addInteraction(DragInteraction(delegate: otherSource))
        }

        /// The drag steps as "phase view operation" ("entered b cancel").
        var steps: [String] {
            script.drags.map { "\($0.phase.rawValue) \($0.view?.id ?? "-") \($0.operation.rawValue)" }
        }
        var ended: DragTraceEvent? { script.drags.last { $0.phase == .ended } }

        /// Touch 0 held on "a" for the lift delay, then moved to (x, y) and lifted there.
        func touchDrag(toX x: Double, y: Double, from t: Double = 0) {
            script.down(0, 100, 100, at: t)
            script.advance(to: t + 0.5)
            script.move(0, (100 + x) / 2, (100 + y) / 2, at: t + 0.6)
            script.move(0, x, y, at: t + 0.7)
            script.up(0, x, y, at: t + 0.8)
            script.finish()
        }
    }

    @Test("UIKit: a touch held still lifts the item after the lift delay; dropped on a target proposing copy, the target performs the drop and the source is told it ended with copy")
    func touchDragCopies() {
        let s = Scene()
        s.script.down(0, 100, 100, at: 0)
        s.script.advance(to: 0.499)
        #expect(s.script.drags.isEmpty, "nothing lifts before the lift delay (0.5 s)")
        s.script.advance(to: 0.5)
        #expect(s.steps == ["began a cancel", "moved - cancel"], "the item lifts at 0.5 s, over no target yet")
        s.script.move(0, 400, 100, at: 0.6)
        s.script.move(0, 700, 100, at: 0.7)
        s.script.up(0, 700, 100, at: 0.8)
        s.script.finish()
        #expect(s.steps == ["began a cancel", "moved - cancel", "moved - cancel", "entered b cancel", "moved b copy",
                            "moved b copy", "dropped b copy", "ended a copy"])
        #expect(s.source.calls == ["willBegin a", "willEnd copy", "didEnd copy"])
        #expect(s.target.calls == ["enter", "update copy", "performDrop 1", "conclude", "end"],
                "UIKit's order: enter, update, performDrop, concludeDrop, sessionDidEnd")
        #expect(s.target.dropped == ["file:///photos/one.jpg\r\n"], "the target reads the item's text/uri-list data")
    }

    @Test("UIKit: the drag's preview follows the touch: the session's location at each move is the touch's")
    func previewFollowsTouch() {
        let s = Scene()
        s.touchDrag(toX: 700, y: 100)
        #expect(s.source.previewLocations == [Point(x: 100, y: 100), Point(x: 400, y: 100), Point(x: 700, y: 100),
                                              Point(x: 700, y: 100)])
    }

    @Test("UIKit: a drop on a target proposing forbidden cancels the drag, and the source is told cancel")
    func forbiddenCancels() {
        let s = Scene(proposal: .forbidden)
        s.touchDrag(toX: 700, y: 100)
        #expect(s.source.calls == ["willBegin a", "willEnd cancel", "didEnd cancel"])
        #expect(s.target.calls == ["enter", "update forbidden", "exit", "end"], "no performDrop on a forbidden target")
        #expect(s.ended?.reason == "the touch lifted over b, which proposed forbidden")
    }

    @Test("UIKit: a drop over no drop target cancels, and the source is told cancel")
    func dropOnNothingCancels() {
        let s = Scene()
        s.touchDrag(toX: 500, y: 500)
        #expect(s.source.outcomes == [.cancel])
        #expect(s.target.calls.isEmpty, "a target the drag never reached hears nothing")
        #expect(s.ended?.reason == "the touch lifted over no drop target")
    }

    @Test("UIKit: move is for sessions that allow it; otherwise it is treated as cancel")
    func moveNotAllowedIsCancel() {
        let s = Scene(proposal: .move)
        s.source.allowsMove = false
        s.touchDrag(toX: 700, y: 100)
        #expect(s.source.outcomes == [.cancel])
        let allowed = Scene(proposal: .move)
        allowed.touchDrag(toX: 700, y: 100)
        #expect(allowed.source.outcomes == [.move])
    }

    @Test("UIKit: a touch that moves past the allowable movement before the lift drags nothing; the superview's pan takes it")
    func movementBeforeLiftPans() {
        let s = Scene()
        var panned = false
        s.script.add(PanGestureRecognizer(name: "pan") { pan in if pan.state == .began { panned = true } })
        s.script.down(0, 100, 100, at: 0)
        s.script.move(0, 100, 130, at: 0.2)
        s.script.up(0, 100, 130, at: 0.3)
        s.script.finish()
        #expect(s.script.drags.isEmpty, "no drag session")
        #expect(panned, "the pan on the root began")
        #expect(s.script.reasons["a.drag"]?.first?.hasPrefix("moved 30") == true)
    }

    @Test("UIKit: a pointer drag begins at once when the pressed pointer crosses the movement threshold, without the lift delay")
    func pointerDragBeginsOnMovement() {
        let s = Scene()
        s.script.pointer(100, 100, at: 0)
        s.script.button(true, 100, 100, at: 0.01)
        s.script.pointer(107, 100, at: 0.02)
        #expect(s.script.drags.isEmpty, "7 pt is within the 8 pt threshold")
        s.script.pointer(109, 100, at: 0.03)
        #expect(s.steps.first == "began a cancel", "9 pt passes it, 20 ms after the press")
        s.script.pointer(700, 100, at: 0.1)
        s.script.button(false, 700, 100, at: 0.2)
        s.script.finish()
        #expect(s.source.outcomes == [.copy])
        #expect(s.target.dropped == ["file:///photos/one.jpg\r\n"])
    }

    @Test("UIKit: a tap on another draggable view during the drag adds its items to the session")
    func tapAddsItems() {
        let s = Scene()
        s.otherSource.itemsToAdd = [DragItem(itemProvider: ItemProvider(uris: ["file:///photos/two.jpg"]))]
        s.script.down(0, 100, 100, at: 0)
        s.script.advance(to: 0.5)
        s.script.move(0, 300, 100, at: 0.6)
        s.script.tap(1, 100, 700, at: 0.7)
        s.script.move(0, 700, 100, at: 0.9)
        s.script.up(0, 700, 100, at: 1.0)
        s.script.finish()
        #expect(s.otherSource.calls == ["willAdd 1"])
        #expect(s.steps.contains("added c cancel"))
        #expect(s.target.calls.contains("performDrop 2"), "both items dropped")
        #expect(s.target.dropped == ["file:///photos/one.jpg\r\n", "file:///photos/two.jpg\r\n"])
        #expect(s.otherSource.outcomes.isEmpty, "the session is a's: c only added items")
    }

    @Test("UIKit: a tap on the draggable view is still a tap; once the item lifts, the view's tap fails and its touches are cancelled")
    func tapOnDraggableView() {
        let s = Scene()
        var taps = 0
        s.script.add(TapGestureRecognizer(name: "tap") { _ in taps += 1 }, to: s.a)
        s.script.tap(0, 100, 100, at: 0)
        #expect(taps == 1 && s.script.drags.isEmpty)
        s.touchDrag(toX: 700, y: 100, from: 1)
        #expect(taps == 1, "the lift made the tap fail")
        #expect(s.script.lines("a").contains("1.500 a: touchesCancelled [2]"), "the view's touch was cancelled at the lift")
        #expect(s.source.outcomes == [.copy])
    }

    @Test("UIKit: a drag whose touch is cancelled ends with cancel, and the target it was over is exited")
    func cancelledTouch() {
        let s = Scene()
        s.script.down(0, 100, 100, at: 0)
        s.script.advance(to: 0.5)
        s.script.move(0, 700, 100, at: 0.6)
        s.script.cancel(0, 700, 100, at: 0.7)
        s.script.finish()
        #expect(s.source.calls == ["willBegin a", "willEnd cancel", "didEnd cancel"])
        #expect(s.target.calls == ["enter", "update copy", "exit", "end"])
        #expect(s.ended?.reason == "the touch was cancelled")
    }

    @Test("UIKit: a delegate that gives no items for beginning makes no drag, and the view's long press begins")
    func noItemsNoDrag() {
        let s = Scene()
        s.source.items = { _ in [] }
        var pressed = false
        s.script.add(LongPressGestureRecognizer(name: "press") { p in if p.state == .began { pressed = true } }, to: s.a)
        s.touchDrag(toX: 700, y: 100)
        #expect(s.script.drags.isEmpty)
        #expect(pressed)
        #expect(s.script.reasons["a.drag"] == ["the drag interaction's delegate gave no items"])
    }

    @Test("UIKit: a target whose delegate cannot handle the session is passed over for its superview's drop interaction")
    func canHandleFallsThrough() {
        let s = Scene()
        let inner = View(id: "inner", frame: Rect(x: 50, y: 50, width: 100, height: 100))
        s.b.addSubview(inner)
        inner.addInteraction(DropInteraction(delegate: RecordingDropTarget(proposal: .copy, accepts: ContentType("image/png"))))
        s.touchDrag(toX: 700, y: 100)
        #expect(s.target.calls.first == "enter", "b's drop interaction takes it: inner's cannot handle a uri list")
        #expect(s.source.outcomes == [.copy])
    }

    @Test("ContentType: a type with parameters conforms to the bare type; text/uri-list items read as plain text too")
    func contentTypes() {
        #expect(ContentType.utf8PlainText.conforms(to: .plainText))
        #expect(!ContentType.plainText.conforms(to: .utf8PlainText))
        #expect(!ContentType.uriList.conforms(to: .plainText))
        let provider = ItemProvider(uris: ["file:///a", "file:///b"])
        #expect(provider.registeredContentTypes == [.uriList, .utf8PlainText])
        var text = ""
        provider.loadData(for: .plainText) { if case let .success(b) = $0 { text = String(decoding: b, as: UTF8.self) } }
        #expect(text == "file:///a\nfile:///b")
        var failure: ItemProviderError?
        provider.loadData(for: ContentType("image/png")) { if case let .failure(e) = $0 { failure = e } }
        #expect(failure?.description == "no representation of image/png; offered: text/uri-list, text/plain;charset=utf-8")
    }
}

@Suite("Drag and drop: the article's sample")
struct PhotoDragSampleTests {
    @Test("UIKit: the photo dragged to the album is copied once; a second drag is forbidden and cancels")
    func sample() throws {
        let script = Harness()
        let sample = PhotoDragSample(in: script.root)
        script.down(0, 140, 115, at: 0)
        script.advance(to: 0.5)
        script.move(0, 650, 240, at: 0.6)
        #expect(sample.preview == Point(x: 650, y: 240), "the preview follows the touch")
        script.up(0, 650, 240, at: 0.7)
        #expect(sample.albumFiles == ["file:///home/ana/Pictures/harbour.jpg"])
        #expect(sample.preview == nil)
        script.down(1, 140, 115, at: 1)
        script.advance(to: 1.5)
        script.move(1, 650, 240, at: 1.6)
        script.up(1, 650, 240, at: 1.7)
        script.finish()
        #expect(sample.albumFiles.count == 1, "the second drop was forbidden")
        #expect(script.drags.filter { $0.phase == .ended }.map(\.operation) == [.copy, .cancel])
    }
}
