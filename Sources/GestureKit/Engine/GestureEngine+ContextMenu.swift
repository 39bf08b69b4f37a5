/// The keyboard's menu key (`KEY_COMPOSE`, GDK's `Menu`; GTK also takes shift+F10) opens the
/// context menu of the focused view, or of the view under the pointer: the nearest of it and
/// its ancestors with a `ContextMenuInteraction` whose recognizer is enabled. The menu opens
/// at the pointer when the pointer is over that view, at the view's centre otherwise (GTK's
/// keyboard popup opens at its widget).
extension GestureEngine {
    /// The menu key was pressed at `time`. `focusedView`: the view with the keyboard focus,
    /// if the app has one; without it, the view under the pointer. Deadlines before it fire
    /// first; a press with no menu to open is reported (`inputIgnored`).
    public func sendMenuKey(at time: Instant, focusedView: View? = nil) {
        if storage.inStep {
            storage.queued.append(.menuKey(time, focusedView))
            return
        }
        fireDeadlines(before: time, inclusive: false)
        if time > now { now = time }
        let pointer = pointerLocation
        var candidate = focusedView ?? pointer.flatMap { hitTest($0) }
        while let view = candidate {
            for case let interaction as ContextMenuInteraction in view.interactions where interaction.gestureRecognizer.isEnabled {
                var location = Point(x: view.bounds.midX, y: view.bounds.midY)
                if let pointer {
                    let inView = view.convertFromScreen(pointer)
                    if view.point(inside: inView) { location = inView }
                }
                interaction.openMenu(at: location, trigger: .menuKey)
                return
            }
            candidate = view.superview
        }
        ignored("menu key: no view with a context menu \(focusedView == nil ? "under the pointer" : "at the focused view \(focusedView!.debugName)")")
    }
}
