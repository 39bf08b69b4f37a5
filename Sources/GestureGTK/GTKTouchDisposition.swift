import GestureKit

/// What `GTKWindowInput` did with a touch between the window and its widgets, as it did it:
/// the claims report an app reads to see why a widget did or did not act
/// (`GTKWindowInput.onTouchDisposition`).
public struct GTKTouchDisposition: CustomStringConvertible {
    public enum Kind: String, CaseIterable, Sendable {
        /// Held back from every widget at its press: a recognizer that delays touches began
        /// (`delaysTouchesBegan`) may still take it.
        case delayed
        /// Its events held back so far were given to the widgets: its recognizers let it go.
        case released
        /// A recognizer took it (`cancelsTouchesInView`): its sequence is claimed from the
        /// window, the widgets' gestures got `::cancel`, and its later events stop at the
        /// window.
        case claimed
        /// A recognizer took it as its press was read: it stopped at the window, and no widget
        /// saw any of it.
        case takenAtPress = "taken at its press"
        /// A recognizer took it, but GTK refused the window's claim (a widget's gesture had
        /// claimed the sequence first): the widgets' gestures that track it are cancelled one
        /// by one (`::cancel`), and its later events stop at the window.
        case claimRefused = "claim refused"
        /// Its lift is held back from the widgets while a recognizer may still take the touch
        /// (`delaysTouchesEnded`).
        case liftHeld = "lift held"
        /// Its held lift was given to the widgets: its recognizers failed.
        case liftGivenBack = "lift given back"
        /// A gesture of GTK's own claimed it first (a scrolled window's drag): the engine heard
        /// it cancelled.
        case takenByGTK = "taken by GTK"
    }

    public let kind: Kind
    /// The view of the bound widget the touch landed on (nil: the window's own).
    public let view: GTKWidgetView?
    /// How many touches the window holds claimed now, this one included (those down, and
    /// one whose held lift is being claimed).
    public let claimedTouches: Int

    /// The kind and the view's id: "claimed button-tap".
    public var description: String { kind.rawValue + " " + (view?.id ?? "window") }
}
