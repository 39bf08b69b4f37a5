import GestureKit
import GestureSDL

/// A board's handlers, written as a UIKit view controller's.
final class BoardController {
    let board = View(id: "board", frame: Rect(x: 0, y: 0, width: 640, height: 480))

    func select(_ tap: TapGestureRecognizer) { print("select at \(tap.location(in: board))") }
}

let engine = GestureEngine()
let controller = BoardController()
engine.addRoot(controller.board)
controller.board.addGestureRecognizer(TapGestureRecognizer(target: controller, action: BoardController.select))

// SDL delivers touches once (not also as mouse events), then the app's loop converts each
// event, on SDL's clock (SDL_GetTicks).
SDLInputAdapter.configureSDL()
guard SDL_Init(UInt32(SDL_INIT_EVENTS)) == 0 else { fatalError("SDL_Init: \(String(cString: SDL_GetError()))") }
var adapter = SDLInputAdapter(windowSize: controller.board.frame.size)

// A window's finger would make these; here a tap a quarter of the way across is pushed.
for type in [SDL_FINGERDOWN, SDL_FINGERUP] {
    var finger = SDL_Event()
    finger.tfinger.type = type.rawValue
    finger.tfinger.touchId = 1
    finger.tfinger.x = 0.25
    finger.tfinger.y = 0.5
    SDL_PushEvent(&finger)
}

// The loop: wait for an event or the engine's next deadline, whichever comes first.
let end = SDLClock.ticks + .milliseconds(500)
var event = SDL_Event()
while SDLClock.ticks < end {
    let wake = [engine.nextDeadline, end].compactMap { $0 }.min()!
    let wait = max(0, (wake.nanoseconds - SDLClock.ticks.nanoseconds) / 1_000_000)
    if SDL_WaitEventTimeout(&event, Int32(wait)) != 0 {
        adapter.convert(event)
        while SDL_PollEvent(&event) != 0 { adapter.convert(event) }
    }
    for input in adapter.take() { engine.send(input) }
    engine.advance(to: SDLClock.ticks)
}
engine.finish()
SDL_Quit()
