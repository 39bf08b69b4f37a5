/// UIKit's `UIInteraction`: behaviour added to a view as a whole (a drag, a drop), which
/// installs the recognizers it needs on the view it is added to. `View.addInteraction(_:)`
/// adds one; the view keeps it (strongly) until `removeInteraction(_:)`.
public protocol Interaction: AnyObject {
    /// The view the interaction is added to, if any.
    var view: View? { get }
    /// Called before the interaction moves to `view` (nil: it is being removed).
    func willMove(to view: View?)
    /// Called after the interaction moved to `view` (nil: it was removed).
    func didMove(to view: View?)
}

extension View {
    /// UIKit's `addInteraction(_:)`: adds `interaction` to the view (moving it from any
    /// other view first), and tells it so.
    public func addInteraction(_ interaction: any Interaction) {
        if let old = interaction.view, old !== self { old.removeInteraction(interaction) }
        guard !interactions.contains(where: { $0 === interaction }) else { return }
        interaction.willMove(to: self)
        interactions.append(interaction)
        interaction.didMove(to: self)
    }

    /// UIKit's `removeInteraction(_:)`: removes `interaction` from the view; a drag it
    /// started is cancelled (its recognizers are removed with it).
    public func removeInteraction(_ interaction: any Interaction) {
        guard let index = interactions.firstIndex(where: { $0 === interaction }) else { return }
        interaction.willMove(to: nil)
        interactions.remove(at: index)
        interaction.didMove(to: nil)
    }
}
