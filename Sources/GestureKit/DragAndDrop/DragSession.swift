/// UIKit's `UIDropOperation`: what a drop target proposes for the items over it, and what
/// the source is told the session ended with.
public enum DropOperation: String, Hashable, Sendable, CaseIterable {
    /// UIKit's `.cancel`: no data moves; dropping here cancels the drag (the default
    /// proposal, and what a drag dropped on no target ends with).
    case cancel
    /// UIKit's `.forbidden`: the target would take items like these, but not now; dropping
    /// here cancels the drag.
    case forbidden
    /// UIKit's `.copy`: the target copies the data.
    case copy
    /// UIKit's `.move`: the target takes the items and the source removes them. Only for a
    /// session whose `allowsMoveOperation` is true (within one app); otherwise it counts as
    /// `.cancel` (UIKit: "it's treated as a UIDropOperation.cancel operation").
    case move

    /// Whether a drop with this proposal performs (copy, move).
    public var performsDrop: Bool { self == .copy || self == .move }
}

/// UIKit's `UIDropProposal`: the operation a drop target proposes.
public struct DropProposal: Hashable, Sendable {
    public var operation: DropOperation
    public init(operation: DropOperation) { self.operation = operation }
}

/// UIKit's `UIDragSession` and `UIDropSession` in one: the items being dragged, where the
/// drag is, and, for a drop target, what it may do with them.
///
/// A session is made when a drag interaction lifts its items and lives until it ends (one
/// of `DropOperation`). Its `location` is where the item's preview is drawn: it follows the
/// touch (or the pointer) that lifted it, and the source's delegate is told at each move
/// (`dragInteraction(_:sessionDidMove:)`), so that an app draws the preview there.
public final class DragSession {
    /// Where the session came from.
    public enum Origin {
        /// A drag interaction of this app (UIKit: the drop session's `localDragSession`).
        case local(DragInteraction)
        /// Another app, through the system (a Wayland data offer): items whose data arrives
        /// when they are loaded after the drop.
        case system
    }

    /// Numbers sessions for traces: 1, 2, … within an engine.
    public let id: Int
    public let origin: Origin
    /// The items, in the order they were added.
    public private(set) var items: [DragItem]
    /// UIKit's `localContext`: anything the source wants its app's drop targets to see.
    public var localContext: Any?
    /// UIKit's `allowsMoveOperation`: whether a target may propose `.move` (true within the
    /// app unless the source's delegate says no; false for a drag from another app).
    public internal(set) var allowsMoveOperation: Bool
    /// Where the drag is, in screen points: the touch's (or pointer's) place, where its
    /// preview is drawn.
    public internal(set) var location: Point
    /// The touch that drags the items (nil for a system drag).
    public internal(set) var touch: TouchID?
    /// The operation the target under the drag proposes now (`.cancel` over none).
    public internal(set) var operation: DropOperation = .cancel
    /// The drop interaction under the drag now, if it can handle the session.
    public internal(set) weak var target: DropInteraction?
    /// How the session ended, once it has.
    public internal(set) var outcome: DropOperation?
    /// Whether it is ending (its delegates are being told): it neither moves nor ends again
    /// from their callbacks.
    var isEnding = false
    /// Whether the compositor carries it (a drag of this app's that left its window, between
    /// its leaving and its end or its coming back): its touch neither moves nor ends it, the
    /// compositor's word does (`DragAndDropCoordinator`'s rule 5).
    package internal(set) var isCarriedBySystem = false

    init(id: Int, origin: Origin, items: [DragItem], location: Point, allowsMoveOperation: Bool) {
        self.id = id
        self.origin = origin
        self.items = items
        self.location = location
        self.allowsMoveOperation = allowsMoveOperation
    }

    /// The drag interaction that lifted the items, for a drag within the app.
    public var sourceInteraction: DragInteraction? {
        if case let .local(interaction) = origin { interaction } else { nil }
    }

    /// UIKit's `location(in:)`: where the drag is, in `view`'s coordinates (screen points
    /// for nil).
    public func location(in view: View?) -> Point {
        view?.convertFromScreen(location) ?? location
    }

    /// UIKit's `hasItemsConforming(toTypeIdentifiers:)`: whether any item has data of one
    /// of `types`.
    public func hasItemsConforming(to types: [ContentType]) -> Bool {
        items.contains { item in types.contains { item.itemProvider.hasRepresentation(conformingTo: $0) } }
    }

    /// The session's items' content types, each once, in the order of the items.
    public var contentTypes: [ContentType] {
        var seen: [ContentType] = []
        for item in items {
            for t in item.itemProvider.registeredContentTypes where !seen.contains(t) { seen.append(t) }
        }
        return seen
    }

    func add(_ more: [DragItem]) { items.append(contentsOf: more) }
}

/// UIKit's `UIDropSession` is the same object here, seen from the target.
public typealias DropSession = DragSession
