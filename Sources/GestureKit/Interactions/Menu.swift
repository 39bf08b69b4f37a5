/// A menu as data (UIKit's `UIMenu`): a title, an image by name, options, and children that are
/// actions or menus. Whoever presents it draws it: GestureGTK as a `GtkPopoverMenu`, an app on
/// SDL or a plain Wayland window with its own drawing (`PresentedContextMenu`).
///
/// A child menu with `displayInline` is a section of its parent (drawn with separators, as
/// UIKit's inline menus and GMenu's sections are); any other child menu is a submenu.
public struct Menu {
    /// UIKit's `UIMenu.Options`.
    public struct Options: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A section of its parent, not a submenu.
        public static let displayInline = Options(rawValue: 1 << 0)
        /// Its children are destructive (drawn in red).
        public static let destructive = Options(rawValue: 1 << 1)
        /// At most one of its actions is `on` at a time: choosing one turns the others off.
        public static let singleSelection = Options(rawValue: 1 << 2)
    }

    public var title: String
    /// The name of an image (an icon theme's name under GTK: "edit-copy-symbolic").
    public var imageName: String?
    /// Stable across presentations; defaults to the title.
    public var identifier: String
    public var options: Options
    public var children: [MenuElement]

    public init(title: String = "", imageName: String? = nil, identifier: String? = nil,
                options: Options = [], children: [MenuElement]) {
        self.title = title
        self.imageName = imageName
        self.identifier = identifier ?? title
        self.options = options
        self.children = children
    }

    /// The element at `path` (child indices from this menu down); nil past the tree.
    public func element(at path: MenuPath) -> MenuElement? {
        var menu = self
        for (depth, index) in path.indices.enumerated() {
            guard menu.children.indices.contains(index) else { return nil }
            let child = menu.children[index]
            if depth == path.indices.count - 1 { return child }
            guard case let .menu(sub) = child else { return nil }
            menu = sub
        }
        return nil
    }

    /// Every action of the menu and its submenus and sections, depth first, with its path.
    public var actions: [(path: MenuPath, action: MenuAction)] {
        var found: [(path: MenuPath, action: MenuAction)] = []
        func walk(_ menu: Menu, _ prefix: [Int]) {
            for (i, child) in menu.children.enumerated() {
                switch child {
                case let .action(a): found.append((MenuPath(prefix + [i]), a))
                case let .menu(m): walk(m, prefix + [i])
                }
            }
        }
        walk(self, [])
        return found
    }

    /// The path of the first action whose identifier is `identifier`.
    public func path(ofAction identifier: String) -> MenuPath? {
        actions.first { $0.action.identifier == identifier }?.path
    }
}

/// Where an element is in a menu: the index of each child on the way down.
public struct MenuPath: Hashable, Sendable, CustomStringConvertible {
    public var indices: [Int]
    public init(_ indices: [Int]) { self.indices = indices }
    /// "0.2.1".
    public var description: String { indices.map(String.init).joined(separator: ".") }
}

/// One entry of a menu (UIKit's `UIMenuElement`).
public enum MenuElement {
    case action(MenuAction)
    case menu(Menu)

    public var title: String {
        switch self {
        case let .action(a): a.title
        case let .menu(m): m.title
        }
    }
}

/// An action of a menu (UIKit's `UIAction`): its title, image, attributes and state, and the
/// handler called when it is chosen.
public struct MenuAction {
    /// UIKit's `UIMenuElement.Attributes`.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Shown, but cannot be chosen.
        public static let disabled = Attributes(rawValue: 1 << 0)
        /// Drawn as destructive (red): deleting, removing.
        public static let destructive = Attributes(rawValue: 1 << 1)
        /// Not shown at all.
        public static let hidden = Attributes(rawValue: 1 << 2)
    }

    /// UIKit's `UIMenuElement.State`: a check mark beside the title when `on`.
    public enum State: String, Hashable, Sendable {
        case off, on, mixed
    }

    public var title: String
    /// The name of an image (an icon theme's name under GTK: "edit-copy-symbolic").
    public var imageName: String?
    /// Names the action in traces, replays and `chooseAction(_:)`; defaults to the title.
    public var identifier: String
    public var attributes: Attributes
    public var state: State
    /// Called with the action when it is chosen (never for a disabled one).
    public var handler: (MenuAction) -> Void

    public init(title: String, imageName: String? = nil, identifier: String? = nil, attributes: Attributes = [],
                state: State = .off, handler: @escaping (MenuAction) -> Void = { _ in }) {
        self.title = title
        self.imageName = imageName
        self.identifier = identifier ?? title
        self.attributes = attributes
        self.state = state
        self.handler = handler
    }

    /// Whether it can be chosen: not disabled, not hidden.
    public var isEnabled: Bool { attributes.isDisjoint(with: [.disabled, .hidden]) }
}

/// What a context menu shows (UIKit's `UIContextMenuConfiguration`): an identifier, and the
/// menu, made when it is presented by `actionProvider` (given the suggested actions, none
/// here); an `actionProvider` returning nil shows no menu.
public struct ContextMenuConfiguration {
    public var identifier: String?
    public var actionProvider: ([MenuElement]) -> Menu?

    public init(identifier: String? = nil, actionProvider: @escaping ([MenuElement]) -> Menu?) {
        self.identifier = identifier
        self.actionProvider = actionProvider
    }

    /// A configuration whose menu is `menu`.
    public init(identifier: String? = nil, menu: Menu) {
        self.init(identifier: identifier, actionProvider: { _ in menu })
    }
}
