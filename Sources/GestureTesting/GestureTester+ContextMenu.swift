import GestureKit

/// Context menus (`ContextMenuInteraction`): open one as a person does, and see what was
/// presented.
extension GestureTester {
    /// How a test opens a context menu.
    public enum ContextMenuGesture: Hashable, Sendable {
        /// A finger held on the view past the interaction's press duration (plus
        /// `longPressMargin`), then lifted: UIKit's way on touch.
        case longPress
        /// The pointer's secondary button clicked on the view (a right click; a touchpad's
        /// two-finger click is the same button).
        case secondaryClick
        /// The pointer moved over the view, then the keyboard's menu key.
        case menuKey
    }

    /// Opens the context menu of `view` (its own `ContextMenuInteraction`, or its nearest
    /// ancestor's) at its centre, or at `spot` in its coordinates, by `gesture`; returns the
    /// menu presented, or nil when none opened (the delegate gave none, or another
    /// recognizer took the touch: the records say why).
    @discardableResult
    public func openContextMenu(on view: View, at spot: Point? = nil,
                                by gesture: ContextMenuGesture = .longPress) throws -> PresentedContextMenu? {
        let point = try aim(at: view, point: spot)
        let before = engine.presentedContextMenu.map { ObjectIdentifier($0.interaction) }
        let beforeTime = engine.presentedContextMenu?.time
        switch gesture {
        case .longPress:
            try check(point, reaches: view)
            let press = GestureTester.contextMenuInteraction(of: view)?.gestureRecognizer.minimumPressDuration
                ?? GestureDefaults.contextMenuPressDuration
            try longPress(at: point, duration: press + GestureTester.longPressMargin)
        case .secondaryClick:
            try click(at: point, button: .secondary)
        case .menuKey:
            try movePointer(to: point)
            engine.sendMenuKey(at: stamp())
            endGesture()
        }
        guard let presented = engine.presentedContextMenu,
              ObjectIdentifier(presented.interaction) != before || presented.time != beforeTime else { return nil }
        return presented
    }

    /// Chooses the action named `identifier` of the menu presented now, as a person taps it:
    /// returns whether it ran (a disabled action does not).
    @discardableResult
    public func chooseContextMenuAction(_ identifier: String) throws -> Bool {
        guard let presented = engine.presentedContextMenu else {
            throw GestureTestError.invalidParameter(parameter: "identifier", value: identifier,
                                                    why: "no context menu is presented: open one first (openContextMenu(on:))")
        }
        return presented.interaction.chooseAction(identifier)
    }

    /// The context menu interaction of `view` or of its nearest ancestor that has one.
    static func contextMenuInteraction(of view: View) -> ContextMenuInteraction? {
        var v: View? = view
        while let current = v {
            if let i = current.interactions.first(where: { $0 is ContextMenuInteraction }) as? ContextMenuInteraction { return i }
            v = current.superview
        }
        return nil
    }
}
