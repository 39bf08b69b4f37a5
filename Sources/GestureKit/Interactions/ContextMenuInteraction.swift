/// UIKit's `UIContextMenuInteractionDelegate`: the menu for a location, and the menu's
/// presentation and end.
public protocol ContextMenuInteractionDelegate: AnyObject {
    /// The menu for `location` (in the interaction's view), or nil for none there: then
    /// nothing lifts and nothing opens, and the touch goes on to the view's other
    /// recognizers. Asked when the preview lifts (a touch or pen held), at a secondary
    /// click, and at the menu key.
    func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration?
    /// The menu is about to be shown.
    func contextMenuInteraction(_ interaction: ContextMenuInteraction, willDisplayMenuFor configuration: ContextMenuConfiguration)
    /// The menu is going away: an action was chosen, or it was dismissed.
    func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration)
}

extension ContextMenuInteractionDelegate {
    public func contextMenuInteraction(_ interaction: ContextMenuInteraction, willDisplayMenuFor configuration: ContextMenuConfiguration) {}
    public func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {}
}

/// Who draws a presented context menu: GestureGTK's popover, or an app's own drawing (SDL, a
/// plain Wayland window). Set on the engine (`GestureEngine.contextMenuPresenter`).
public protocol ContextMenuPresenter: AnyObject {
    /// Show `menu` at its `screenLocation`.
    func present(_ menu: PresentedContextMenu)
    /// Take it away (an action was chosen, it was dismissed, another opened).
    func dismiss(_ menu: PresentedContextMenu)
}

/// A context menu on the screen: what to draw and where, for whoever draws it.
public struct PresentedContextMenu {
    public let interaction: ContextMenuInteraction
    public let configuration: ContextMenuConfiguration
    public let menu: Menu
    /// Where it was asked for, in the interaction's view.
    public let location: Point
    /// The same place on the screen: the anchor to draw the menu at.
    public let screenLocation: Point
    public let trigger: ContextMenuInteraction.Trigger
    public let time: Instant
}

/// UIKit's `UIContextMenuInteraction`: added to a view (`View.addInteraction(_:)`), it opens
/// a menu of actions, asked of its delegate for the location, on a long press of a touch or
/// a pen (the preview lifts first), a secondary click or a two-finger touchpad click, or the
/// keyboard's menu key (`GestureEngine.sendMenuKey(at:focusedView:)`).
///
/// It is built on a recognizer (`gestureRecognizer`, a `ContextMenuGestureRecognizer`) that
/// the engine arbitrates as any other. Its own states, traced with their reasons
/// (`GestureTraceEvent.contextMenu`):
///
/// | from | to | when |
/// |---|---|---|
/// | `possible` | `lifting` | a touch or pen held `liftDelay` (0.25 s) with a menu from the delegate |
/// | `lifting` | `possible` | moved, lifted or taken before the menu opened |
/// | `lifting`, `possible` | `presented` | held `minimumPressDuration` (0.5 s); a secondary click; the menu key |
/// | `presented` | `possible` | an action chosen (`chooseAction`), or dismissed (`dismissMenu`) |
///
/// One menu is presented at a time in an engine (`GestureEngine.presentedContextMenu`): a new
/// one dismisses the last.
public final class ContextMenuInteraction: Interaction {
    public enum State: String, Hashable, Sendable {
        case possible, lifting, presented
    }

    /// What opened the menu.
    public enum Trigger: String, Hashable, Sendable {
        /// A touch or a pen held (or a primary click held).
        case longPress
        /// A pointer's secondary button (a touchpad's two-finger click).
        case secondaryClick
        /// The keyboard's menu key.
        case menuKey
    }

    public weak var delegate: (any ContextMenuInteractionDelegate)?
    public private(set) weak var view: View?
    /// The recognizer that opens the menu: require other recognizers to fail it, or it
    /// them, as with any.
    public let gestureRecognizer: ContextMenuGestureRecognizer
    public private(set) var state = State.possible
    /// The menu on the screen, while `presented`.
    public private(set) var presentedMenu: PresentedContextMenu?
    /// The configuration the delegate gave at the lift or the click, until it opens.
    private var pending: (configuration: ContextMenuConfiguration, location: Point, start: Instant)?

    /// How traces name it: its recognizer's name.
    public var name: String { gestureRecognizer.name }

    public init(delegate: (any ContextMenuInteractionDelegate)?, name: String? = nil) {
        self.delegate = delegate
        gestureRecognizer = ContextMenuGestureRecognizer(name: name)
        gestureRecognizer.interaction = self
        gestureRecognizer.addTarget { [unowned self] recognizer in
            if recognizer.state == .began { self.openPending(trigger: recognizer.trigger.openedBySecondaryClick ? .secondaryClick : .longPress) }
        }
    }

    public func willMove(to view: View?) {
        guard let old = self.view, old !== view else { return }
        dismissMenu(because: .custom("the interaction left its view"))
        old.removeGestureRecognizer(gestureRecognizer)
    }

    public func didMove(to view: View?) {
        self.view = view
        view?.addGestureRecognizer(gestureRecognizer)
    }

    /// UIKit's `location(in:)`: where the interaction was last asked for a menu (the touch,
    /// the pointer), in `view`'s coordinates (screen coordinates for nil).
    public func location(in view: View?) -> Point {
        let screen = presentedMenu?.screenLocation ?? gestureRecognizer.screenLocation
        return view?.convertFromScreen(screen) ?? screen
    }

    // MARK: Choosing and dismissing

    /// Chooses the action at `path` of the presented menu: the menu closes (`willEnd`), then
    /// the action's handler runs. A disabled or hidden action cannot be chosen: nothing
    /// happens, the menu stays, and the engine reports it (`inputIgnored`). Returns whether
    /// the action ran.
    @discardableResult
    public func chooseAction(at path: MenuPath) -> Bool {
        guard let presented = presentedMenu else {
            engine?.ignored("\(name): no menu is presented: action \(path) not chosen")
            return false
        }
        guard case let .action(action)? = presented.menu.element(at: path) else {
            engine?.ignored("\(name): no action at \(path) of the menu")
            return false
        }
        guard action.isEnabled else {
            engine?.ignored("\(name): \(action.identifier) is \(action.attributes.contains(.hidden) ? "hidden" : "disabled"): it cannot be chosen")
            return false
        }
        close(presented, because: .chose(action.identifier), action: action.identifier)
        action.handler(action)
        return true
    }

    /// Chooses the first action named `identifier` (see `chooseAction(at:)`).
    @discardableResult
    public func chooseAction(_ identifier: String) -> Bool {
        guard let path = presentedMenu?.menu.path(ofAction: identifier) else {
            engine?.ignored("\(name): no action \(identifier) in \(presentedMenu == nil ? "a menu, none is presented" : "the menu")")
            return false
        }
        return chooseAction(at: path)
    }

    /// UIKit's `dismissMenu()`: closes the presented menu with no action chosen (a tap
    /// outside it, Escape, the app).
    public func dismissMenu() {
        dismissMenu(because: .custom("dismissed"))
    }

    /// Closes the presented menu, if any, saying why.
    public func dismissMenu(because reason: ContextMenuReason) {
        guard let presented = presentedMenu else { return }
        close(presented, because: reason, action: nil)
    }

    // MARK: What the recognizer and the engine call

    var engine: GestureEngine? { view?.engine ?? gestureRecognizer.engine }

    /// Asks the delegate for a menu at `screenLocation`; with one, lifts the preview (a press)
    /// or keeps it for the click's `began`. False: no menu there.
    func prepareMenu(at screenLocation: Point, lifting: Bool, at time: Instant) -> Bool {
        guard let view else { return false }
        let location = view.convertFromScreen(screenLocation)
        guard let configuration = delegate?.contextMenuInteraction(self, configurationForMenuAtLocation: location) else {
            pending = nil
            return false
        }
        pending = (configuration, location, time)
        if lifting { transition(to: .lifting, because: .lifted, at: time, location: location) }
        return true
    }

    /// The press that lifted the preview failed or was taken: the preview drops.
    func dropLift(because reason: TransitionReason, at time: Instant) {
        guard state == .lifting else { return }
        let location = pending?.location ?? .zero
        pending = nil
        transition(to: .possible, because: .liftDropped(reason), at: time, location: location)
    }

    /// The recognizer began: the menu the delegate gave opens.
    private func openPending(trigger: Trigger) {
        guard let pending else { return }
        self.pending = nil
        open(pending.configuration, at: pending.location, trigger: trigger)
    }

    /// Asks the delegate for a menu at `location` (in the view) and opens it: the menu key's
    /// way. False: no menu there.
    @discardableResult
    func openMenu(at location: Point, trigger: Trigger) -> Bool {
        guard let configuration = delegate?.contextMenuInteraction(self, configurationForMenuAtLocation: location) else {
            engine?.ignored("\(name): \(trigger.rawValue): no menu here, the delegate returned nil")
            return false
        }
        return open(configuration, at: location, trigger: trigger)
    }

    @discardableResult
    private func open(_ configuration: ContextMenuConfiguration, at location: Point, trigger: Trigger) -> Bool {
        guard let view, let engine else { return false }
        let time = engine.now
        guard let menu = configuration.actionProvider([]) else {
            if state == .lifting { transition(to: .possible, because: .liftDropped(.custom("the action provider gave no menu")), at: time, location: location) }
            engine.ignored("\(name): \(trigger.rawValue): the action provider gave no menu")
            return false
        }
        if let other = engine.presentedContextMenu { other.interaction.dismissMenu(because: .custom("another menu opened")) }
        let presented = PresentedContextMenu(interaction: self, configuration: configuration, menu: menu, location: location,
                                             screenLocation: view.convertToScreen(location), trigger: trigger, time: time)
        delegate?.contextMenuInteraction(self, willDisplayMenuFor: configuration)
        presentedMenu = presented
        engine.presentedContextMenu = presented
        transition(to: .presented, because: .opened(trigger), at: time, location: location, menu: menu)
        engine.contextMenuPresenter?.present(presented)
        return true
    }

    /// The menu is closed first (the interaction's and the engine's state), then the app is
    /// told: the presenter takes it off the screen, the trace, the delegate's `willEnd`. App
    /// code there that dismisses a menu or chooses an action finds none presented, so the menu
    /// ends once and no action runs twice, and a menu it opens stays open.
    private func close(_ presented: PresentedContextMenu, because reason: ContextMenuReason, action: String?) {
        let engine = self.engine
        let time = engine?.now ?? presented.time
        let old = state
        presentedMenu = nil
        if let engine, engine.presentedContextMenu?.interaction === self { engine.presentedContextMenu = nil }
        state = .possible
        engine?.contextMenuPresenter?.dismiss(presented)
        trace(from: old, to: .possible, because: reason, at: time, location: presented.location, action: action, engine: engine)
        delegate?.contextMenuInteraction(self, willEndFor: presented.configuration)
    }

    private func transition(to new: State, because reason: ContextMenuReason, at time: Instant, location: Point,
                            menu: Menu? = nil, action: String? = nil) {
        let old = state
        state = new
        trace(from: old, to: new, because: reason, at: time, location: location, menu: menu, action: action, engine: engine)
    }

    private func trace(from old: State, to new: State, because reason: ContextMenuReason, at time: Instant, location: Point,
                       menu: Menu? = nil, action: String? = nil, engine: GestureEngine?) {
        guard let engine, engine.storage.isTracing else { return }
        engine.emit(.contextMenu(ContextMenuTransition(time: time, interaction: self, from: old, to: new, reason: reason,
                                                       location: location, menu: menu, action: action)))
    }
}

/// Why a context menu interaction changed state (the answer to "why did no menu open?").
public enum ContextMenuReason: CustomStringConvertible {
    /// A touch or pen was held `liftDelay`: the preview lifts.
    case lifted
    /// The press failed or was taken before the menu opened: the preview drops.
    case liftDropped(TransitionReason)
    case opened(ContextMenuInteraction.Trigger)
    /// The action named was chosen.
    case chose(String)
    case custom(String)

    public var description: String {
        switch self {
        case .lifted: "held still: the preview lifts"
        case let .liftDropped(why): "the preview drops: \(why)"
        case .opened(.longPress): "held: the menu opens"
        case .opened(.secondaryClick): "secondary click: the menu opens"
        case .opened(.menuKey): "menu key: the menu opens"
        case let .chose(action): "chose \(action)"
        case let .custom(text): text
        }
    }
}

/// One transition of a context menu interaction, for the trace.
public struct ContextMenuTransition {
    public let time: Instant
    public let interaction: ContextMenuInteraction
    public let from: ContextMenuInteraction.State
    public let to: ContextMenuInteraction.State
    public let reason: ContextMenuReason
    /// In the interaction's view.
    public let location: Point
    /// The menu, on the transition to `presented`.
    public let menu: Menu?
    /// The action chosen, on the transition back to `possible`.
    public let action: String?
}
