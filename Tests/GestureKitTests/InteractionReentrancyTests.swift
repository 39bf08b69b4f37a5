import Testing
import GestureKit
import GestureTestSupport

/// App code called by an interaction (a context menu's delegate, its presenter) calls the
/// interaction back: the menu ends once, an action runs once, and `removeInteraction(_:)`
/// removes what it was asked to however the callbacks change the view's interactions.
/// (`CallbackMatrixTests` checks every public API from every callback point for overlapping
/// access; these check what such a call does.)
@Suite("Interactions called back from their own callbacks")
struct InteractionReentrancyTests {
    /// A delegate that runs `onWillEnd` the first time the menu ends, and counts every call.
    final class CallingBackDelegate: ContextMenuInteractionDelegate, ContextMenuPresenter {
        var onWillEnd: () -> Void = {}
        private(set) var ended = 0
        private(set) var dismissed = 0
        private(set) var ran: [String] = []

        func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                    configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
            let note: (MenuAction) -> Void = { [weak self] action in self?.ran.append(action.identifier) }
            return ContextMenuConfiguration(menu: Menu(children: [.action(MenuAction(title: "copy", handler: note)),
                                                                  .action(MenuAction(title: "paste", handler: note))]))
        }
        func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {
            ended += 1
            // Only the first time: were the menu to end again from here, it would never stop.
            if ended == 1 { onWillEnd() }
        }
        func present(_ menu: PresentedContextMenu) {}
        func dismiss(_ menu: PresentedContextMenu) { dismissed += 1 }
    }

    let h = Harness()
    let cell = View(id: "cell", frame: Rect(x: 100, y: 100, width: 200, height: 200))
    let delegate = CallingBackDelegate()
    let menu: ContextMenuInteraction

    init() {
        h.root.addSubview(cell)
        menu = ContextMenuInteraction(delegate: delegate, name: "menu")
        cell.addInteraction(menu)
        h.engine.contextMenuPresenter = delegate
        h.engine.sendMenuKey(at: Instant(seconds: 0.1), focusedView: cell)
    }

    @Test("UIKit: dismissMenu() from willEnd, as an action closes the menu, does nothing more: the menu ends once, is taken off the screen once, and the action runs once")
    func dismissFromWillEnd() {
        delegate.onWillEnd = { [menu] in menu.dismissMenu() }
        #expect(menu.chooseAction("copy"))
        #expect(delegate.ended == 1, "willEnd once, not again for the dismissal inside it (it was called \(delegate.ended) times)")
        #expect(delegate.dismissed == 1, "the presenter takes the menu away once (\(delegate.dismissed))")
        #expect(delegate.ran == ["copy"], "the action chosen runs once: \(delegate.ran)")
        #expect(h.lines("menu") == ["0.100 menu: menu possible→presented", "0.100 menu: menu presented→possible"],
                "one opening, one closing: \(h.lines("menu"))")
        #expect(menu.state == .possible && menu.presentedMenu == nil && h.engine.presentedContextMenu == nil)
    }

    @Test("UIKit: an action chosen from willEnd, as the menu is dismissed, is not run: the menu is already closing")
    func chooseFromWillEnd() {
        var chose: Bool?
        delegate.onWillEnd = { [menu] in chose = menu.chooseAction("paste") }
        menu.dismissMenu()
        #expect(chose == false, "no menu is presented once it is closing")
        #expect(delegate.ran.isEmpty && delegate.ended == 1 && delegate.dismissed == 1,
                "nothing ran (\(delegate.ran)); willEnd \(delegate.ended), dismissed \(delegate.dismissed) times")
        #expect(h.engine.presentedContextMenu == nil)
    }

    @Test("UIKit: removeInteraction(_:) removes the interaction asked for even when willEnd, as its menu closes, removes another of the view's interactions")
    func removeAnotherFromWillEnd() {
        let drop = DropInteraction(delegate: RecordingDropTarget())
        let drag = DragInteraction(delegate: RecordingDragSource())
        // The cell's interactions: the drop, the menu, the drag; the menu presented.
        cell.removeInteraction(menu)
        cell.addInteraction(drop)
        cell.addInteraction(menu)
        cell.addInteraction(drag)
        h.engine.sendMenuKey(at: Instant(seconds: 0.2), focusedView: cell)
        #expect(menu.state == .presented)
        let remover = RemoveOnEnd { [cell] in cell.removeInteraction(drop) }
        menu.delegate = remover
        cell.removeInteraction(menu)
        #expect(remover.ended == 1, "the menu ends once as it is removed (\(remover.ended))")
        #expect(cell.interactions.map { "\(type(of: $0))" } == ["DragInteraction"],
                "the menu and the drop are gone, the drag stays: \(cell.interactions.map { "\(type(of: $0))" })")
        #expect(menu.view == nil && drop.view == nil && drag.view === cell)
        #expect(cell.gestureRecognizers.count == 2, "the drag's two recognizers stay, the menu's left: \(cell.gestureRecognizers.map(\.name))")
    }

    /// A menu delegate that runs `action` each time the menu ends.
    final class RemoveOnEnd: ContextMenuInteractionDelegate {
        let action: () -> Void
        private(set) var ended = 0
        init(_ action: @escaping () -> Void) { self.action = action }
        func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                    configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? { nil }
        func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {
            ended += 1
            action()
        }
    }

    /// An interaction of the app's own whose `willMove(to:)` runs `onWillMove` once.
    final class AppInteraction: Interaction {
        private(set) weak var view: View?
        var onWillMove: (View?) -> Void = { _ in }
        private var called = false
        func willMove(to view: View?) {
            guard !called else { return }
            called = true
            onWillMove(view)
        }
        func didMove(to view: View?) { self.view = view }
    }

    @Test("UIKit: an interaction of the app's own that adds itself again from willMove(to:) is added once")
    func addItselfFromWillMove() {
        let own = AppInteraction()
        own.onWillMove = { [cell] view in if view != nil { cell.addInteraction(own) } }
        cell.addInteraction(own)
        #expect(cell.interactions.filter { $0 === own }.count == 1, "once: \(cell.interactions.map { "\(type(of: $0))" })")
        #expect(own.view === cell)
    }
}

/// Drag and drop called back from its own delegates: a source "a" (a drag interaction) and
/// a target "b" (a drop interaction proposing copy), each 200 × 200.
@Suite("Drag interactions called back from their own callbacks")
struct DragReentrancyTests {
    /// A drag source that records every call, runs `onItems` when asked for the first items
    /// and `onMove` at the first move.
    final class Source: DragInteractionDelegate {
        var onItems: () -> Void = {}
        var onMove: () -> Void = {}
        private(set) var calls: [String] = []
        private var moved = false
        private var asked = false
        func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
            if !asked {
                asked = true
                onItems()
            }
            return [DragItem(itemProvider: ItemProvider(text: "a"))]
        }
        func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession) { calls.append("willBegin") }
        func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession) {
            guard !moved else { return }
            moved = true
            onMove()
        }
        func dragInteraction(_ interaction: DragInteraction, session: DragSession, willEndWith operation: DropOperation) {
            calls.append("willEnd \(operation.rawValue)")
        }
        func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {
            calls.append("didEnd \(operation.rawValue)")
        }
    }

    /// A target that proposes copy and runs `onDrop` in `performDrop`.
    final class Target: DropInteractionDelegate {
        var onDrop: () -> Void = {}
        private(set) var calls: [String] = []
        func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
            DropProposal(operation: .copy)
        }
        func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
            calls.append("performDrop")
            onDrop()
        }
        func dropInteraction(_ interaction: DropInteraction, concludeDrop session: DropSession) { calls.append("conclude") }
        func dropInteraction(_ interaction: DropInteraction, sessionDidEnd session: DropSession) { calls.append("end") }
    }

    let h = Harness()
    let a = View(id: "a", frame: Rect(x: 0, y: 0, width: 200, height: 200))
    let b = View(id: "b", frame: Rect(x: 600, y: 0, width: 200, height: 200))
    let source = Source()
    let target = Target()
    let drag: DragInteraction
    let drop: DropInteraction

    init() {
        for v in [a, b] { h.root.addSubview(v) }
        drag = DragInteraction(delegate: source)
        drop = DropInteraction(delegate: target)
        a.addInteraction(drag)
        b.addInteraction(drop)
    }

    /// Touch `id` held on "a" for the lift delay, moved to "b" and lifted there, from `t`.
    func dragToB(_ id: Int = 0, from t: Double) {
        h.down(id, 100, 100, at: t)
        h.advance(to: t + 0.5)
        h.move(id, 400, 100, at: t + 0.6)
        h.move(id, 700, 100, at: t + 0.7)
        h.up(id, 700, 100, at: t + 0.8)
    }

    @Test("UIKit: removing the drag interaction cancels its drag, also from its delegate's sessionDidMove: the source is told cancel, and the next drag lifts")
    func removeSourceFromItsCallback() {
        source.onMove = { [a, drag] in a.removeInteraction(drag) }
        dragToB(from: 0)
        #expect(source.calls == ["willBegin", "willEnd cancel", "didEnd cancel"],
                "the drag ends, cancelled, once: \(source.calls)")
        #expect(h.drags.last?.phase == .ended && h.drags.last?.operation == .cancel, "\(h.log)")
        source.onMove = {}
        a.addInteraction(drag)
        dragToB(1, from: 2)
        #expect(source.calls.suffix(3) == ["willBegin", "willEnd copy", "didEnd copy"],
                "a drag after it lifts and drops: \(source.calls)")
    }

    @Test("UIKit: the source removed from the target's performDrop ends the drag once, with the drop's copy")
    func removeSourceFromPerformDrop() {
        target.onDrop = { [a, drag] in a.removeInteraction(drag) }
        dragToB(from: 0)
        #expect(source.calls == ["willBegin", "willEnd copy", "didEnd copy"], "told once, copy: \(source.calls)")
        #expect(target.calls == ["performDrop", "conclude", "end"], "\(target.calls)")
    }

    @Test("UIKit: a drag interaction disabled from its delegate's itemsForBeginning lifts nothing, also when enabled again there: no session is left under way, and the next drag lifts", arguments: [false, true])
    func disableFromItemsForBeginning(enableAgain: Bool) {
        source.onItems = { [drag] in
            drag.isEnabled = false
            if enableAgain { drag.isEnabled = true }
        }
        dragToB(from: 0)
        h.finish()
        #expect(h.drags.isEmpty && source.calls.isEmpty, "nothing lifts: \(h.log)")
        drag.isEnabled = true
        dragToB(1, from: 2)
        #expect(source.calls == ["willBegin", "willEnd copy", "didEnd copy"], "the next drag lifts and drops: \(source.calls)")
    }
}
