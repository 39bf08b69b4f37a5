import GestureKit
import GestureTestSupport
import Testing

/// Drags between apps, as the engine's coordinator runs them (its rule 5) for a backend that
/// carries drags through the compositor: each test names the UIKit rule it checks. The
/// backend here is the window's edge: what a Wayland data device does past it (a real
/// compositor's drags are DragBetweenAppsTests').
@Suite("Drag and drop between apps")
struct SystemDragTests {
    /// A window 1000 pt wide whose compositor carries a drag past its right edge.
    final class WindowEdge: SystemDragPort {
        private(set) var carried: [Int] = []
        func carriesOut(_ session: DragSession) -> Bool {
            guard session.location.x >= 1000 else { return false }
            carried.append(session.id)
            return true
        }
    }

    final class Scene {
        let s = DragAndDropTests.Scene()
        let edge = WindowEdge()
        var engine: GestureEngine { s.script.engine }
        init() { engine.dragAndDrop.systemDrags = edge }

        /// Touch 0 lifts the item on "a", crosses "b", and leaves the window at x 1100.
        func dragOut() {
            s.script.down(0, 100, 100, at: 0)
            s.script.advance(to: 0.5)
            s.script.move(0, 700, 100, at: 0.6)
            s.script.move(0, 1100, 100, at: 0.7)
        }
    }

    @Test("UIKit: a drag that leaves the app is the system's: the target under it is exited, and the touch's end neither drops nor ends it")
    func handedToTheSystem() {
        let scene = Scene(), s = scene.s
        scene.dragOut()
        #expect(scene.edge.carried == [1], "the backend starts a system drag when the drag leaves the window")
        #expect(s.target.calls == ["enter", "update copy", "exit"], "the target the drag was over is exited")
        #expect(s.script.drags.last?.reason == "the drag left the window: the compositor carries it")
        s.script.up(0, 1100, 100, at: 0.8)
        #expect(s.source.calls == ["willBegin a"], "the lift (the compositor's grab) does not end the carried drag")
        #expect(!s.target.calls.contains { $0.hasPrefix("performDrop") }, "nothing is dropped in this app")
    }

    @Test("UIKit: dropped on another app that copies, the source is told the drag ended with copy; every target it saw is told it ended")
    func droppedOnAnotherApp() {
        let scene = Scene(), s = scene.s
        scene.dragOut()
        s.script.up(0, 1100, 100, at: 0.8)
        scene.engine.dragAndDrop.systemDragEnded(with: .copy, reason: "dropped on another app", engine: scene.engine)
        s.script.finish()
        #expect(s.source.calls == ["willBegin a", "willEnd copy", "didEnd copy"])
        #expect(s.target.calls == ["enter", "update copy", "exit", "end"])
        #expect(s.steps.last == "ended a copy")
    }

    @Test("UIKit: a drag the system cancels (dropped where no app took it) ends with cancel")
    func cancelledBySystem() {
        let scene = Scene(), s = scene.s
        scene.dragOut()
        scene.engine.dragAndDrop.systemDragEnded(with: .forbidden, reason: "cancelled", engine: scene.engine)
        #expect(s.source.calls == ["willBegin a", "willEnd cancel", "didEnd cancel"])
    }

    @Test("UIKit: the app's own drag coming back over its window goes on as the same session, and dropped there is an in-app drop")
    func comingBack() throws {
        let scene = Scene(), s = scene.s, dnd = scene.engine.dragAndDrop
        scene.dragOut()
        let back = dnd.systemDragEntered(items: { [] }, at: Point(x: 990, y: 100), engine: scene.engine)
        #expect(back === dnd.session && back.sourceInteraction != nil, "the same session, not another app's")
        dnd.systemDragMoved(to: Point(x: 700, y: 100), engine: scene.engine)
        #expect(dnd.systemDragDropped(engine: scene.engine) == .copy)
        dnd.systemDragEnded(with: .copy, reason: "the compositor finished it", engine: scene.engine)
        #expect(s.target.dropped == ["file:///photos/one.jpg\r\n"], "the target reads the item's own data")
        #expect(s.source.calls == ["willBegin a", "willEnd copy", "didEnd copy"], "the source hears the end once")
    }

    @Test("UIKit: another app's drag is a drop session with no local drag session; over a target it is proposed to and dropped, its data loading from the other app")
    func anotherAppsDrag() {
        let scene = Scene(), s = scene.s, dnd = scene.engine.dragAndDrop
        var asked: [ContentType] = []
        let provider = ItemProvider()
        provider.registerDataRepresentation(for: .uriList) { completion in
            asked.append(.uriList)
            completion(.success(Array("file:///elsewhere.png\r\n".utf8)))
        }
        let session = dnd.systemDragEntered(items: { [DragItem(itemProvider: provider)] }, at: Point(x: 5, y: 500),
                                            engine: scene.engine)
        #expect(session.sourceInteraction == nil && !session.allowsMoveOperation, "UIKit: move only within the app")
        dnd.systemDragMoved(to: Point(x: 700, y: 100), engine: scene.engine)
        #expect(session.operation == .copy, "the target's proposal is the answer to the compositor")
        #expect(asked.isEmpty, "no data travels before the drop")
        #expect(dnd.systemDragDropped(engine: scene.engine) == .copy)
        #expect(s.target.dropped == ["file:///elsewhere.png\r\n"])
        #expect(s.target.calls == ["enter", "update copy", "performDrop 1", "conclude", "end"])
    }

    @Test("UIKit: another app's drag that leaves the window ends here without a drop; the target is exited and told it ended")
    func anotherAppsDragLeaves() {
        let scene = Scene(), s = scene.s, dnd = scene.engine.dragAndDrop
        _ = dnd.systemDragEntered(items: { [DragItem(itemProvider: ItemProvider(uris: ["file:///x"]))] },
                                  at: Point(x: 700, y: 100), engine: scene.engine)
        dnd.systemDragLeft(engine: scene.engine)
        #expect(s.target.calls == ["enter", "update copy", "exit", "end"])
        #expect(dnd.session?.outcome == .cancel)
    }

    @Test("the data a drag carried out gives another app: a text/uri-list joins every item's lines; another type is the first item's")
    func dataForAnotherApp() {
        let scene = Scene(), dnd = scene.engine.dragAndDrop
        let session = dnd.systemDragEntered(items: {
            [DragItem(itemProvider: ItemProvider(uris: ["file:///a"])), DragItem(itemProvider: ItemProvider(uris: ["file:///b"]))]
        }, at: Point(x: 5, y: 900), engine: scene.engine)
        var uriList = "", text = ""
        DragAndDropCoordinator.data(of: session, for: .uriList) { uriList = (try? $0.get()).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        DragAndDropCoordinator.data(of: session, for: .utf8PlainText) { text = (try? $0.get()).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        #expect(uriList == "file:///a\r\nfile:///b\r\n")
        #expect(text == "file:///a")
    }
}
