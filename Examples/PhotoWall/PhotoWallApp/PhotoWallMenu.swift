import GestureKit
import GestureLayout

/// The photos' context menu, drawn by the wall itself (no toolkit draws it on SDL or a kiosk's
/// screen): a right click on a photo (or `GestureEngine.sendMenuKey` with the pointer over one; the
/// example apps send no menu key) opens Zoom, Select and Share
/// (disabled: the wall cannot share). A touch keeps its long press for picking a tile up.
///
/// The wall's rule for the drawn menu, stated once: while it is open, a press (a finger, a
/// button, anywhere) is the menu's, never the views': on an enabled item it chooses it, on a
/// disabled item or the panel it does nothing, outside the panel it closes the menu. The rest
/// of that touch or click is the menu's too.
extension PhotoWall: ContextMenuInteractionDelegate {
    func setUpContextMenu() {
        let interaction = ContextMenuInteraction(delegate: self, name: "contextMenu")
        interaction.gestureRecognizer.allowedTouchTypes = [.indirectPointer]
        interaction.gestureRecognizer.buttonMaskRequired = .secondary
        collectionView.addInteraction(interaction)
        contextMenu = interaction
    }

    public func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                       configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        guard zoomedPhoto == nil, let item = collectionView.indexPathForItem(at: location) else { return nil }
        menuItem = item
        let name = library.name(of: item)
        return ContextMenuConfiguration(identifier: name) { [unowned self] _ in
            Menu(title: name, children: [
                .action(MenuAction(title: "Zoom", identifier: "zoom") { [unowned self] _ in zoom(photoAt: item, gesture: "menu") }),
                .action(MenuAction(title: "Select", identifier: "select") { [unowned self] _ in select(photoAt: item, gesture: "menu") }),
                .menu(Menu(options: .displayInline, children: [
                    .action(MenuAction(title: "Share", identifier: "share", attributes: .disabled)),
                ])),
            ])
        }
    }

    public func contextMenuInteraction(_ interaction: ContextMenuInteraction, willDisplayMenuFor configuration: ContextMenuConfiguration) {
        emit(.menuOpened, gesture: "menu", "opened on \(configuration.identifier ?? "a photo")")
    }

    public func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {
        emit(.menuClosed, gesture: "menu", "closed on \(configuration.identifier ?? "a photo")")
        menuItem = nil
    }

    /// One row of the drawn menu.
    public struct MenuRow: Sendable {
        public var frame: Rect
        public var title: String
        /// The action's path in the menu (nil for a submenu's row, which the wall's menus have none of).
        public var path: MenuPath?
        public var isEnabled: Bool
        public var isDestructive: Bool
        public var isOn: Bool
    }

    /// The open menu as the wall draws it: its panel, its rows, the lines between sections.
    public struct MenuPanel: Sendable {
        public var frame: Rect
        public var rows: [MenuRow]
        public var separators: [Rect]
    }

    static let menuWidth = 240.0 /* pt */
    static let menuRowHeight = 44.0 /* pt */
    static let menuPadding = 6.0 /* pt */

    /// The open menu's panel, below and right of where it was asked for, kept on the screen.
    public var menuPanel: MenuPanel? {
        guard drawsContextMenu, let presented = engine.presentedContextMenu else { return nil }
        var rows: [MenuRow] = []
        var separators: [Rect] = []
        var y = Self.menuPadding
        func lay(_ menu: Menu, _ prefix: [Int]) {
            for (i, child) in menu.children.enumerated() {
                switch child {
                case let .action(a) where !a.attributes.contains(.hidden):
                    rows.append(MenuRow(frame: Rect(x: 0, y: y, width: Self.menuWidth, height: Self.menuRowHeight), title: a.title,
                                        path: MenuPath(prefix + [i]), isEnabled: a.isEnabled,
                                        isDestructive: a.attributes.contains(.destructive), isOn: a.state == .on))
                    y += Self.menuRowHeight
                case .action:
                    break
                case let .menu(sub) where sub.options.contains(.displayInline):
                    separators.append(Rect(x: 0, y: y + 3, width: Self.menuWidth, height: 1))
                    y += 7
                    lay(sub, prefix + [i])
                case let .menu(sub):
                    rows.append(MenuRow(frame: Rect(x: 0, y: y, width: Self.menuWidth, height: Self.menuRowHeight), title: sub.title + "  ›",
                                        path: nil, isEnabled: true, isDestructive: false, isOn: false))
                    y += Self.menuRowHeight
                }
            }
        }
        lay(presented.menu, [])
        let height = y + Self.menuPadding
        let anchor = presented.screenLocation
        let x = min(max(anchor.x, 0), screen.width - Self.menuWidth)
        let top = min(max(anchor.y, 0), screen.height - height)
        let origin = Point(x: x, y: top)
        func place(_ r: Rect) -> Rect { r.offsetBy(dx: origin.x, dy: origin.y) }
        return MenuPanel(frame: Rect(x: x, y: top, width: Self.menuWidth, height: height),
                         rows: rows.map { var r = $0; r.frame = place(r.frame); return r },
                         separators: separators.map(place))
    }

    /// The drawn menu, over everything but the caption.
    func drawMenu(into list: inout DisplayList) {
        guard let panel = menuPanel else { return }
        list.fill(panel.frame.offsetBy(dx: PhotoWallStyle.shadowOffset.x, dy: PhotoWallStyle.shadowOffset.y), PhotoWallStyle.shadow)
        list.fill(panel.frame, PhotoWallStyle.menuBackground)
        for separator in panel.separators { list.fill(separator, PhotoWallStyle.menuSeparator) }
        for row in panel.rows {
            let color = !row.isEnabled ? PhotoWallStyle.menuDisabledText
                : row.isDestructive ? PhotoWallStyle.menuDestructiveText : PhotoWallStyle.headerText
            list.text((row.isOn ? "✓ " : "") + row.title, in: Rect(x: row.frame.minX + 16, y: row.frame.minY, width: row.frame.width - 32, height: row.frame.height),
                      size: 18, color)
        }
    }

    /// A frame while the menu is open: its new touches are the menu's (the rule above); what is
    /// left goes to the engine, nil when nothing is.
    func menuTakes(_ frame: TouchFrame) -> TouchFrame? {
        var kept = frame
        kept.changes = []
        for change in frame.changes {
            if menuTouches.contains(change.sourceID) {
                if change.phase == .ended || change.phase == .cancelled { menuTouches.remove(change.sourceID) }
                continue
            }
            if change.phase == .began, drawsContextMenu, engine.presentedContextMenu != nil {
                menuTouches.insert(change.sourceID)
                press(at: change.location, time: frame.time)
                continue
            }
            kept.changes.append(change)
        }
        return kept.changes.isEmpty && !frame.changes.isEmpty ? nil : kept
    }

    /// A pointer event while the menu is open: whether the menu took it (a press, and its
    /// release).
    func menuTakes(_ event: PointerEvent) -> Bool {
        guard event.kind == .button else { return false }
        if event.pressed, drawsContextMenu, engine.presentedContextMenu != nil {
            menuHoldsPointer = true
            press(at: event.location, time: event.time)
            return true
        }
        if !event.pressed, menuHoldsPointer {
            menuHoldsPointer = false
            return true
        }
        return false
    }

    private func press(at point: Point, time: Instant) {
        engine.advance(to: time)
        guard let panel = menuPanel, let interaction = engine.presentedContextMenu?.interaction else { return }
        guard panel.frame.contains(point) else {
            interaction.dismissMenu(because: .custom("a press outside the menu"))
            return
        }
        if let row = panel.rows.first(where: { $0.frame.contains(point) }), let path = row.path {
            interaction.chooseAction(at: path)
        }
    }
}

extension PhotoWallStyle {
    public static let menuBackground = Color(rgb: 0x2c3242)
    public static let menuSeparator = Color(rgb: 0x4a5268)
    public static let menuDisabledText = Color(rgb: 0x6f7890)
    public static let menuDestructiveText = Color(rgb: 0xff5c5c)
}
