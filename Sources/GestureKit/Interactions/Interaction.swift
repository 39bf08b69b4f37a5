/// UIKit's `UIInteraction`: a behaviour added to a view (`View.addInteraction(_:)`) that
/// brings its own recognizers and state, as `ContextMenuInteraction`, `DragInteraction` and
/// `DropInteraction` do.
///
/// The view holds its interactions strongly (UIKit's `interactions`); an interaction holds its
/// view weakly.
///
/// `willMove(to:)` and `didMove(to:)` may run app code (an interaction of the app's own; a
/// context menu's delegate told that its menu ends), which may add or remove interactions of
/// the same view, this one included: `addInteraction(_:)` and `removeInteraction(_:)` look the
/// interaction up again after every call out, and never act on a position found before one.
public protocol Interaction: AnyObject {
    /// The view the interaction is added to (nil before it is added, and after it is removed).
    var view: View? { get }
    /// The interaction is about to be added to `view`, or removed (nil).
    func willMove(to view: View?)
    /// The interaction was added to `view`, or removed (nil).
    func didMove(to view: View?)
}

extension View {
    /// UIKit's `addInteraction(_:)`: adds `interaction` to this view (removing it from the view
    /// it was on first); adding it twice does nothing.
    public func addInteraction(_ interaction: any Interaction) {
        if let old = interaction.view, old !== self { old.removeInteraction(interaction) }
        guard !interactions.contains(where: { $0 === interaction }) else { return }
        interaction.willMove(to: self)
        // Code it ran may have added it already.
        guard !interactions.contains(where: { $0 === interaction }) else { return }
        interactions.append(interaction)
        interaction.didMove(to: self)
    }

    /// UIKit's `removeInteraction(_:)`: its recognizers leave the view (one under way is
    /// cancelled, or fails), a menu it presented is dismissed and a drag it started is
    /// cancelled.
    public func removeInteraction(_ interaction: any Interaction) {
        guard interactions.contains(where: { $0 === interaction }) else { return }
        interaction.willMove(to: nil)
        // Found again: code it ran (a menu's `willEnd`) may have removed others, or this one.
        guard let index = interactions.firstIndex(where: { $0 === interaction }) else { return }
        interactions.remove(at: index)
        interaction.didMove(to: nil)
    }
}
