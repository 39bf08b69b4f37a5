import GestureInput
import GestureKit
import GestureLibinput
import GestureTraces

/// How a kiosk reads its touch panel: a 1920 × 1080 screen whose
/// panel is mounted upside down and, as its calibration tool measured,
/// a little off; its devices come from the seat, and are grabbed.
func kioskListener() -> LibinputListener {
    let mapping = TouchMapping(
        rotation: 180,       // clockwise, after the calibration
        calibration: [1.02, 0, -0.01, 0, 0.98, 0.01])  // a b c d e f
    var listener = LibinputListener(
        source: .seat("seat0"),
        screenSize: Size(width: 1920, height: 1080), mapping: mapping)
    // seatd or logind opens the devices: no input group for the user.
    listener.access = .seat
    // EVIOCGRAB: the console underneath does not act on the touches.
    listener.grab = true
    return listener
}

/// Runs the kiosk's engine (its views and recognizers attached)
/// until Ctrl-C or SIGTERM. libinput announces each touchscreen with
/// how many points a millimetre of it covers on this screen, so a
/// screen-edge pan's margin is 5 mm of glass.
func runKiosk(_ engine: GestureEngine) throws {
    try LiveInput(kioskListener()).run(engine)
}
