import Testing
import GestureKit
import GestureTestSupport
import GestureTesting

/// `ContextMenuInteraction`, UIKit's `UIContextMenuInteraction`: a cell (200, 200, 300 × 300) in
/// a root that pans (a scroll view around it), a tap and the interaction on the cell.
@Suite("Context menus")
struct ContextMenuTests {
    let h = Harness()
    let cell = View(id: "cell", frame: Rect(x: 200, y: 200, width: 300, height: 300))
    let delegate = TestMenuDelegate()
    let interaction: ContextMenuInteraction
    let tap = TapGestureRecognizer(name: "tap")
    let pan = PanGestureRecognizer(name: "scroll")

    init() {
        h.root.addSubview(cell)
        interaction = ContextMenuInteraction(delegate: delegate, name: "menu")
        cell.addInteraction(interaction)
        cell.addGestureRecognizer(tap)
        h.root.addGestureRecognizer(pan)
    }

    @Test("UIKit: a long press on touch lifts the preview, then opens the menu; the tap on the same view is not recognized and the view's touch is cancelled")
    func longPressOpens() {
        h.down(1, 300, 300, at: 0)
        h.advance(to: 0.3)
        #expect(interaction.state == .lifting, "the preview lifts at 0.25 s, before the menu")
        h.advance(to: 0.6)
        h.up(1, 300, 300, at: 0.9)
        #expect(h.lines("menu") == ["0.250 menu: menu possible→lifting", "0.500 menu: possible→began", "0.500 menu: menu lifting→presented",
                                    "0.900 menu: began→ended"], "lift at 0.25 s, menu at 0.5 s: \(h.lines("menu"))")
        #expect(!h.lines("tap").contains { $0.hasSuffix("possible→ended") }, "no tap: \(h.lines("tap"))")
        #expect(h.lines("cell").last == "0.500 cell: touchesCancelled [1]", "the cell's touch is cancelled when the menu opens: \(h.lines("cell"))")
        #expect(delegate.askedAt == [Point(x: 100, y: 100)], "the delegate is asked once, at the lift, in the cell's coordinates: \(delegate.askedAt)")
        #expect(delegate.displayed == 1 && interaction.state == .presented, "the menu stays open after the finger lifts")
        #expect(h.engine.presentedContextMenu?.screenLocation == Point(x: 300, y: 300) && h.engine.presentedContextMenu?.trigger == .longPress)
    }

    @Test("UIKit: a finger that moves past 10 pt before the timeout scrolls the view around it and opens nothing")
    func movementScrollsInstead() {
        h.down(1, 300, 300, at: 0)
        for k in 1...10 { h.move(1, 300, 300 - Double(k) * 4, at: 0.01 * Double(k)) }
        h.advance(to: 1)
        h.up(1, 300, 260, at: 1)
        #expect(h.lines("scroll").first == "0.030 scroll: possible→began", "the scroll view's pan takes the finger: \(h.lines("scroll"))")
        #expect(h.lines("menu") == ["0.030 menu: possible→failed"], "the menu's recognizer fails, nothing lifts: \(h.lines("menu"))")
        #expect(delegate.askedAt.isEmpty && h.engine.presentedContextMenu == nil, "no menu was asked for or opened")
    }

    @Test("UIKit: movement after the lift, before the menu, drops the preview and the scroll takes over")
    func movementAfterLiftDropsIt() {
        h.down(1, 300, 300, at: 0)
        h.advance(to: 0.3)
        h.move(1, 300, 320, at: 0.35)
        h.up(1, 300, 320, at: 0.5)
        #expect(h.lines("menu") == ["0.250 menu: menu possible→lifting", "0.350 menu: possible→failed", "0.350 menu: menu lifting→possible"],
                "\(h.lines("menu"))")
        // The pan and the menu's own allowable movement both decide at that move (10 pt each):
        // whichever the engine weighs first gives the reason.
        #expect(h.reasons["menu menu"]?.last == "the preview drops: \(h.reasons["menu"]?.last ?? "")", "\(h.reasons["menu menu"] ?? [])")
        #expect(h.lines("scroll").first == "0.350 scroll: possible→began")
    }

    @Test("UIKit: a delegate that returns nil means no menu: nothing lifts, and a short press is still a tap")
    func nilConfigurationMeansNoMenu() {
        delegate.givesMenu = false
        h.down(1, 300, 300, at: 0)
        h.advance(to: 0.3)
        #expect(h.lines("menu") == ["0.250 menu: possible→failed"], "\(h.lines("menu"))")
        #expect(h.reasons["menu"] == ["no menu here: the delegate returned nil"])
        h.up(1, 300, 300, at: 0.35)
        #expect(h.lines("tap") == ["0.350 tap: possible→ended"], "the tap recognizes: \(h.lines("tap"))")
    }

    @Test("UIKit: a secondary click (a right click, a touchpad's two-finger click) opens the menu at the pointer at once")
    func secondaryClickOpensAtPointer() {
        h.pointer(420, 380, at: 0)
        h.send(.pointer(.button(true, at: Point(x: 420, y: 380), time: Instant(seconds: 0.1), device: InputDeviceID(1), button: 0x111)))
        let menu = h.engine.presentedContextMenu
        #expect(menu?.trigger == .secondaryClick && menu?.location == Point(x: 220, y: 180) && menu?.screenLocation == Point(x: 420, y: 380),
                "open at the press, at the pointer: \(String(describing: menu?.screenLocation))")
        #expect(h.lines("menu") == ["0.100 menu: possible→began", "0.100 menu: menu possible→presented"], "\(h.lines("menu"))")
        h.send(.pointer(.button(false, at: Point(x: 420, y: 380), time: Instant(seconds: 0.2), device: InputDeviceID(1), button: 0x111)))
        #expect(h.lines("tap").isEmpty && interaction.state == .presented, "a right click is no tap; the menu stays")
    }

    @Test("a primary click held is a long press, as on iPadOS; a short primary click is a tap")
    func primaryClick() {
        h.click(300, 300, at: 0)
        #expect(h.lines("tap") == ["0.070 tap: possible→ended"])
        h.button(true, 300, 300, at: 1)
        h.advance(to: 1.6)
        #expect(interaction.state == .presented && h.engine.presentedContextMenu?.trigger == .longPress)
    }

    @Test("the menu key opens the menu of the view under the pointer, at the pointer; of a focused view, at its centre")
    func menuKey() {
        h.pointer(250, 450, at: 0)
        h.engine.sendMenuKey(at: Instant(seconds: 0.1))
        #expect(h.engine.presentedContextMenu?.trigger == .menuKey && h.engine.presentedContextMenu?.location == Point(x: 50, y: 250))
        interaction.dismissMenu()
        h.pointer(50, 50, at: 0.2)
        h.engine.sendMenuKey(at: Instant(seconds: 0.3))
        #expect(h.engine.presentedContextMenu == nil && h.ignored.last == "menu key: no view with a context menu under the pointer",
                "over the root, which has none: \(h.ignored)")
        h.engine.sendMenuKey(at: Instant(seconds: 0.4), focusedView: cell)
        #expect(h.engine.presentedContextMenu?.location == Point(x: 150, y: 150), "the focused cell's centre")
    }

    @Test("UIKit: a disabled action cannot be chosen; an enabled one closes the menu (willEnd), then runs its handler")
    func choosing() throws {
        h.engine.sendMenuKey(at: Instant(seconds: 0.1), focusedView: cell)
        #expect(interaction.chooseAction("share") == false, "share is disabled")
        #expect(delegate.ran.isEmpty && interaction.state == .presented && h.ignored.last == "menu: share is disabled: it cannot be chosen")
        let path = try #require(interaction.presentedMenu?.menu.path(ofAction: "rename"))
        #expect(path.description == "2.0", "rename is the first child of the third entry")
        #expect(interaction.chooseAction(at: path))
        #expect(delegate.ran == ["rename"] && delegate.ended == 1 && interaction.state == .possible && h.engine.presentedContextMenu == nil)
        #expect(h.reasons["menu menu"]?.last == "chose rename")
    }

    @Test("one menu at a time: a second opening dismisses the first; removing the interaction dismisses its menu")
    func oneAtATime() {
        let other = View(id: "other", frame: Rect(x: 600, y: 600, width: 100, height: 100))
        h.root.addSubview(other)
        let second = TestMenuDelegate()
        let secondInteraction = ContextMenuInteraction(delegate: second, name: "menu2")
        other.addInteraction(secondInteraction)
        h.engine.sendMenuKey(at: Instant(seconds: 0.1), focusedView: cell)
        h.engine.sendMenuKey(at: Instant(seconds: 0.2), focusedView: other)
        #expect(delegate.ended == 1 && interaction.state == .possible && secondInteraction.state == .presented)
        other.removeInteraction(secondInteraction)
        #expect(second.ended == 1 && h.engine.presentedContextMenu == nil && other.gestureRecognizers.isEmpty)
    }

    @Test("GestureTester opens the menu by a long press, a secondary click and the menu key, and returns what was presented")
    func testerOpens() throws {
        for gesture in [GestureTester.ContextMenuGesture.longPress, .secondaryClick, .menuKey] {
            let menu = try h.tester.openContextMenu(on: cell, by: gesture)
            #expect(menu?.trigger.rawValue == (gesture == .longPress ? "longPress" : gesture == .secondaryClick ? "secondaryClick" : "menuKey"))
            #expect(menu?.menu.actions.map(\.action.identifier) == ["copy", "share", "rename", "delete"])
            #expect(try h.tester.chooseContextMenuAction("copy"))
        }
        #expect(delegate.ran == ["copy", "copy", "copy"], "each chosen copy ran: \(delegate.ran)")
        #expect(!h.lines("tap").contains { $0.hasSuffix("possible→ended") }, "no gesture was a tap: \(h.lines("tap"))")
    }

    @Test("the article's sample: a photo held for its menu, Favourite turns on, then Delete runs (Context menus and drag and drop)")
    func articleSample() throws {
        let photo = View(id: "photo", frame: Rect(x: 600, y: 600, width: 200, height: 200))
        h.root.addSubview(photo)
        let menu = PhotoMenu(on: photo)
        let presented = try #require(try h.tester.openContextMenu(on: photo))
        #expect(presented.menu.actions.map(\.action.identifier) == ["Copy", "Favourite", "Delete"])
        #expect(try h.tester.chooseContextMenuAction("Favourite") && menu.isFavourite)
        let again = try #require(try h.tester.openContextMenu(on: photo, by: .secondaryClick))
        #expect(again.menu.actions[1].action.state == .on, "the menu is made when it opens: Favourite is on now")
        #expect(try h.tester.chooseContextMenuAction("Delete") && menu.deleted)
    }
}
