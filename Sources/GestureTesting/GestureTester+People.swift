import GestureKit

/// The figures the tester's gestures are made from, each a named constant with its unit and
/// its source: the project's own touchscreen recordings (`Fixtures/ts-…`, measured by
/// `swift test --filter MeasuredDefaultsTests`, which fails if a figure here drifts from
/// them), published measurements of hands, or platform documentation. Distances of the hand
/// are in millimetres and reach the screen through ``GestureTester/pointsPerMillimetre``, as
/// the engine's physical thresholds do.
extension GestureTester {
    /// The report rate of the tester's touchscreen when none is set: 120 events a second,
    /// within the rates the project's touchscreen recordings report a moving finger at (72,
    /// 100, 130, 131 and 166 Hz: Atmel maXTouch, Surface Pro 3, EP0430M09, Pixel Tablet, Dell
    /// Canvas 27; `MeasuredDefaultsTests`), the rate of a 120 Hz panel's touch controller. A
    /// ``Sweep`` varies it from 60 (iOS without ProMotion, where threshold bugs hide) to 240.
    public static let defaultSampleRate = 120 /* events per second */

    /// How long a tap is held: 80 ms, the median of the 17 taps in the project's touchscreen
    /// recordings of taps (24 to 110 ms, median 82; `MeasuredDefaultsTests`). A tap at a recognizer is held at
    /// most half its `maximumTapDuration`.
    public static let tapHold: Duration = .milliseconds(80)
    /// The pause from one tap's lift to the next tap's touch-down (a double tap's), and from
    /// the end of one gesture to the start of the next: 140 ms, the median of the 9 pauses
    /// between taps in the project's touchscreen recordings (125 to 153 ms, median 139;
    /// `MeasuredDefaultsTests`). At a tap recognizer, at most half its `maximumTapInterval`.
    public static let tapPause: Duration = .milliseconds(140)
    /// How much longer than the longest `minimumPressDuration` a long press is held: 100 ms,
    /// so the press is well past its deadline when the finger lifts (a margin, not a measure).
    public static let longPressMargin: Duration = .milliseconds(100)
    /// How far apart side-by-side fingers land, centre to centre: 18 mm, the middle of an
    /// adult index fingertip's width of 16 to 20 mm (Dandekar, Raju and Srinivasan, "3-D
    /// finite-element models of human and monkey fingertips", J. Biomech. Eng. 125(5), 2003,
    /// as the MIT Touch Lab's figure is quoted for touch targets), fingers touching; the Dell
    /// Canvas 27 and Surface Pro 3 recordings' fingers landing together were 14 to 31 mm
    /// from their nearest neighbour (`MeasuredDefaultsTests`).
    public static let fingerSpacingMillimetres = 18.0 /* mm */
    /// How far apart two fingers of a pinch or a rotation land when no distance is given:
    /// 40 mm, where a second finger joined the first in the project's recordings of screens
    /// whose size is known (34 to 70 mm, median 42: Surface Pro 3, Dell Canvas 27;
    /// `MeasuredDefaultsTests`), at most 60 % of the view's extent along their line so that
    /// both land on it.
    public static let pinchFingerDistanceMillimetres = 40.0 /* mm */
    /// How far inside the screen's edge an edge pan lands: 3 mm, inside the tightest edge
    /// zone the platforms document (Android's `ViewDragHelper` takes an edge drag that begins
    /// within `EDGE_SIZE`, 20 dp, 3.2 mm; GNOME Shell's within 20 logical pixels, 5.3 mm), and
    /// in the 2 to 5 mm where a finger swept in from the bezel is first reported
    /// (`GestureDefaults.screenEdgeMarginMillimetres`' figure, a design figure: no recording of
    /// a real edge swipe was found, and the project's synthetic ones land 2 mm in).
    public static let edgeInsetMillimetres = 3.0 /* mm */
    /// How many points a millimetre is where the touchscreen's size is not known: 96 an inch
    /// (3.78 a millimetre), the reference pixel of CSS and of GNOME's and GTK's unscaled
    /// logical pixels, which the engine's 20-point edge margin (GNOME Shell's 20 logical
    /// pixels, 5.3 mm) assumes.
    public static let nominalPointsPerMillimetre = 96.0 / 25.4 /* pt per mm */
    /// How far a swipe travels beyond the longest `minimumDistance` of the swipes under it:
    /// 50 pt (a margin, not a measure).
    public static let swipeOvershoot = 50.0 /* pt */

    /// Side-by-side fingers' spacing in points (it was 40 pt, about 6 mm at
    /// 163 points an inch).
    @available(*, deprecated, message: "finger spacing is in millimetres through pointsPerMillimetre: fingerSpacingMillimetres, or variation.fingerSpacingMillimetres")
    public static var fingerSpacing: Double { fingerSpacingMillimetres * nominalPointsPerMillimetre }
    /// An edge pan's inset in points (it was 1 pt).
    @available(*, deprecated, message: "the edge inset is in millimetres through pointsPerMillimetre: edgeInsetMillimetres, or variation.edgeInsetMillimetres")
    public static var edgeInset: Double { edgeInsetMillimetres * nominalPointsPerMillimetre }
}
