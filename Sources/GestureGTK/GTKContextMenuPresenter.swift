import CGTK4
import GestureKit

/// GestureKit's context menus as GTK draws them: a `GtkPopoverMenu` made from the menu's data
/// (a `GMenu` model: actions as items with their icons, submenus, inline menus as sections,
/// an action that is `on` as a check item, a disabled one greyed out, a hidden one left out)
/// pointing at the touch or the pointer, its items' actions in a `GSimpleActionGroup` that
/// calls back into the interaction (`chooseAction(at:)`: the Swift handler runs).
///
/// Rules, stated once:
/// - The popover is parented to `parent`, whose coordinates are the engine's screen
///   coordinates (the window for `GTKWindowInput`, the drawing area for `GTKGestureWindow`).
/// - The popover closing by itself (a press outside it, Escape) dismisses the menu; GTK may
///   close it just before it activates the chosen item's action, so the dismissal waits for
///   GLib's next idle turn, and an action activated meanwhile is chosen first.
/// - The popover pops up at GLib's next idle turn, not inside the engine's step: by then the
///   recognizer that opened the menu has claimed its touch from the widgets (GTK resets the
///   gestures outside a popover as it opens, and a touch it reset first would be GTK's).
/// - One popover at a time, as one menu at a time in the engine; a menu dismissed in Swift
///   (`dismissMenu()`, another menu opening) pops its popover down, or never shows it.
/// - GtkPopoverMenu has no style for destructive items: they are drawn as any other.
public final class GTKContextMenuPresenter: ContextMenuPresenter {
    /// The widget the popovers are parented to.
    public let parent: UnsafeMutableRawPointer
    private struct Shown {
        let menu: PresentedContextMenu
        let popover: UnsafeMutableRawPointer
        /// The action group's actions, "a0", "a1", …: their paths in the menu.
        let paths: [MenuPath]
    }
    private var shown: Shown?
    /// Popovers closed, to unparent at the next idle turn.
    private var closing: [UnsafeMutableRawPointer] = []
    private var idle: guint = 0
    /// Called when a popover has been shown (with the popover) or closed (nil): how a test
    /// knows it is on the screen.
    public var onPopover: ((UnsafeMutableRawPointer?) -> Void)?

    /// Called with each popover before it pops up (GTKWindowInput reads its events).
    var willShowPopover: ((UnsafeMutableRawPointer) -> Void)?
    /// Whether GTK closes the popover itself at a press outside it (`gtk_popover_set_autohide`).
    /// GTKWindowInput turns it off and closes the popover at a press outside it itself: the
    /// popover's grab would take the finger that opened the menu, whose lift (Wayland's
    /// popup grab, under sway) closes it as the finger leaves the screen.
    var autohide = true

    /// The action group's prefix: items name "gkmenu.a3".
    static let prefix = "gkmenu"

    /// A presenter drawing `engine`'s context menus over `parent`; it becomes the engine's
    /// `contextMenuPresenter` (held weakly there: keep this object).
    public init(parent: UnsafeMutableRawPointer, engine: GestureEngine) {
        self.parent = parent
        engine.contextMenuPresenter = self
    }

    deinit {
        if idle != 0 { g_source_remove(idle) }
        if let shown { gk_widget_unparent(shown.popover) }
        for popover in closing { gk_widget_unparent(popover) }
    }

    /// The popover on the screen now, if any (`GtkPopoverMenu *`).
    public var popover: UnsafeMutableRawPointer? { shown?.popover }

    public func present(_ menu: PresentedContextMenu) {
        pending = menu
        scheduleIdle()
    }

    /// A menu presented, to show at the next idle turn.
    private var pending: PresentedContextMenu?

    private func show(_ menu: PresentedContextMenu) {
        if let old = shown { close(old.popover) }
        var paths: [MenuPath] = []
        let group = gk_action_group_new()!
        let me = Unmanaged.passUnretained(self).toOpaque()
        func build(_ m: Menu, _ prefix: [Int]) -> UnsafeMutableRawPointer {
            let model = gk_menu_new()!
            for (i, child) in m.children.enumerated() {
                switch child {
                case let .action(action):
                    let name = "a\(paths.count)"
                    paths.append(MenuPath(prefix + [i]))
                    // An action that is on (or mixed) is a check item, checked.
                    let checked: Int32 = action.state == .off ? -1 : 1
                    gk_action_group_add(group, name, action.isEnabled ? 1 : 0, checked,
                                        unsafeBitCast(gtkMenuActionActivated, to: GCallback.self), me)
                    gk_menu_append_action(model, action.title, "\(Self.prefix).\(name)", action.imageName,
                                          action.attributes.contains(.hidden) ? 1 : 0)
                case let .menu(sub):
                    let subModel = build(sub, prefix + [i])
                    if sub.options.contains(.displayInline) {
                        gk_menu_append_section(model, sub.title.isEmpty ? nil : sub.title, subModel)
                    } else {
                        gk_menu_append_submenu(model, sub.title, subModel)
                    }
                }
            }
            return model
        }
        let model = build(menu.menu, [])
        let at = menu.screenLocation
        let popover = gk_popover_menu_new(model, group, Self.prefix, parent, Int32(at.x.rounded()), Int32(at.y.rounded()),
                                          autohide ? 1 : 0, unsafeBitCast(gtkMenuPopoverClosed, to: GCallback.self), me)!
        willShowPopover?(popover)
        gk_popover_popup(popover)
        shown = Shown(menu: menu, popover: popover, paths: paths)
        onPopover?(popover)
    }

    public func dismiss(_ menu: PresentedContextMenu) {
        if let pending, pending.interaction === menu.interaction, pending.time == menu.time { self.pending = nil }
        guard let current = shown, current.menu.interaction === menu.interaction, current.menu.time == menu.time else { return }
        shown = nil
        close(current.popover)
    }

    /// Pops `popover` down (if it is still up) and unparents it at the next idle turn.
    private func close(_ popover: UnsafeMutableRawPointer) {
        if !closing.contains(popover) { closing.append(popover) }
        if gk_popover_visible(popover) != 0 { gk_popover_close(popover) }
        scheduleIdle()
    }

    private func scheduleIdle() {
        guard idle == 0 else { return }
        idle = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, gtkMenuIdle, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func activated(_ name: String) {
        guard let current = shown, name.first == "a", let index = Int(name.dropFirst()), current.paths.indices.contains(index) else { return }
        current.menu.interaction.chooseAction(at: current.paths[index])
    }

    fileprivate func popoverClosed(_ popover: UnsafeMutableRawPointer) {
        if !closing.contains(popover) { closing.append(popover) }
        scheduleIdle()
    }

    /// The idle turn after a popover closed: the menu it showed, if no action was chosen
    /// meanwhile, is dismissed; closed popovers are unparented.
    fileprivate func idleTurn() {
        idle = 0
        let closed = closing
        closing.removeAll()
        if let current = shown, closed.contains(current.popover) {
            shown = nil
            current.menu.interaction.dismissMenu(because: .custom("the popover closed"))
        }
        for popover in closed { gk_widget_unparent(popover) }
        if let menu = pending {
            pending = nil
            // Still the engine's menu (not dismissed meanwhile): shown now.
            if menu.interaction.presentedMenu?.time == menu.time { show(menu) }
        } else if !closed.isEmpty {
            onPopover?(nil)
        }
    }
}

private let gtkMenuActionActivated: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { action, _, data in
    guard let action, let data, let name = gk_action_name(action) else { return }
    Unmanaged<GTKContextMenuPresenter>.fromOpaque(data).takeUnretainedValue().activated(String(cString: name))
}

private let gtkMenuPopoverClosed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { popover, data in
    guard let popover, let data else { return }
    Unmanaged<GTKContextMenuPresenter>.fromOpaque(data).takeUnretainedValue().popoverClosed(popover)
}

private let gtkMenuIdle: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
    guard let data else { return 0 }
    Unmanaged<GTKContextMenuPresenter>.fromOpaque(data).takeUnretainedValue().idleTurn()
    return 0
}
