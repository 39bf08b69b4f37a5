import Foundation
import GestureKit

/// Touches recognized on a thread of the app's own. The engine, its
/// view and its recognizer are made, fed and read on that thread, and
/// never leave it: what crosses between threads is values, the frames
/// going in (`TouchFrame` is Sendable) and the lines the action says.
func recognizeOnAThreadOfItsOwn(_ frames: [TouchFrame]) -> [String] {
    let said = LockedLines()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let engine = GestureEngine()
        let photo = View(id: "photo",
                         frame: Rect(x: 0, y: 0, width: 800, height: 480))
        engine.addRoot(photo)
        photo.addGestureRecognizer(TapGestureRecognizer { tap in
            said.append("tap at \(tap.location(in: tap.view))")
        })
        for frame in frames { engine.send(frame) }
        // The end of input: deadlines run, touches still down cancelled.
        engine.finish()
        done.signal()
    }
    thread.start()
    done.wait()
    return said.lines
}

/// Lines written on one thread and read on another, behind a lock.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
