/// UIKit's `UIDropInteractionDelegate`. Every method has UIKit's default (a delegate that
/// says nothing proposes `.cancel`: it takes no drop).
public protocol DropInteractionDelegate: AnyObject {
    /// UIKit's `dropInteraction(_:canHandle:)`: whether the target looks at this session at
    /// all; no lets the drag pass over it as over a view without a drop interaction (the
    /// search goes on to its superviews). Default yes.
    func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool
    /// The drag came over the target.
    func dropInteraction(_ interaction: DropInteraction, sessionDidEnter session: DropSession)
    /// The drag is over the target (called on entering and at every move): the proposal.
    /// Default `.cancel`.
    func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal
    /// The drag left the target (or ended over it without a drop).
    func dropInteraction(_ interaction: DropInteraction, sessionDidExit session: DropSession)
    /// The items were dropped on the target with a copy or move proposal: take their data.
    func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession)
    /// After `performDrop`, once the source has been told (UIKit's `concludeDrop`).
    func dropInteraction(_ interaction: DropInteraction, concludeDrop session: DropSession)
    /// The session ended (every target that saw it is told, dropped on or not).
    func dropInteraction(_ interaction: DropInteraction, sessionDidEnd session: DropSession)
}

extension DropInteractionDelegate {
    public func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool { true }
    public func dropInteraction(_ interaction: DropInteraction, sessionDidEnter session: DropSession) {}
    public func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        DropProposal(operation: .cancel)
    }
    public func dropInteraction(_ interaction: DropInteraction, sessionDidExit session: DropSession) {}
    public func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {}
    public func dropInteraction(_ interaction: DropInteraction, concludeDrop session: DropSession) {}
    public func dropInteraction(_ interaction: DropInteraction, sessionDidEnd session: DropSession) {}
}

/// UIKit's `UIDropInteraction`: makes its view a drop target. While a drag session is over
/// the view (hit-tested as touches are: the front-most view under the drag, then up its
/// superviews to the first whose drop interaction can handle the session), the delegate is
/// told it entered, is asked for a proposal at every move, and is told it left; a drag that
/// ends over it with a copy or move proposal is dropped on it (`performDrop`).
public final class DropInteraction: Interaction {
    public private(set) weak var view: View?
    /// Held weakly, as UIKit's.
    public weak var delegate: (any DropInteractionDelegate)?
    /// UIKit's `allowsSimultaneousDropSessions`: kept for UIKit's shape; the engine runs one
    /// drag session at a time.
    public var allowsSimultaneousDropSessions = false
    /// A disabled drop interaction is passed over, as one whose delegate cannot handle it.
    public var isEnabled = true

    public init(delegate: any DropInteractionDelegate) {
        self.delegate = delegate
    }

    public func willMove(to view: View?) {
        if view == nil, let old = self.view, let engine = old.engine {
            engine.dragAndDrop.dropInteractionRemoved(self, engine: engine)
        }
    }

    public func didMove(to view: View?) { self.view = view }
}
