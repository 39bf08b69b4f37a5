import Foundation
import GestureKit
import GestureLibinput
import GestureWayland
import Testing

/// GestureWayland used as an app uses it, against sway fed from recordings: the README's
/// sample, and a window destroyed mid-gesture.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct WaylandClientTests {
    @Test("README's desktop sample recognizes a recorded double tap under sway, and stops cleanly when the compositor does")
    func readmeSample() throws {
        let sample = Compositor.packageRoot + "/.build/debug/desktop-quickstart"
        let session = try Compositor.start(trace: Compositor.fixture("ts-wacom-isdv4-e6-double-tap-1f.evemu"),
                                           client: "CLIENT_DIR/desktop-quickstart", copy: [sample])
        defer { session.remove() }
        // The double tap is over 0.3 s after the lead-in; then the compositor stops.
        usleep(useconds_t((Compositor.leadIn + 1.5) * 1_000_000))
        session.stopCompositor()
        #expect(session.wait(seconds: 10) { session.clientStatus != nil }, "the sample exits when the compositor stops")
        #expect(session.clientStatus == 0, "exit status 0: \(session.errors)")
        #expect(session.output.contains("zoom\n"), "the double tap zooms: \(session.output) \(session.errors)")
        #expect(session.output.contains("stopped: connectionLost"), "run returns why it stopped: \(session.output)")
    }

    /// Records the long press's states and destroys the window once it has begun.
    final class DestroyOnLongPress: LiveInputClient {
        let engine = GestureEngine()
        var window: WaylandWindow?
        var input: WaylandInput?
        var states: [GestureRecognizer.State] = []
        var viewPhases: [TouchPhase] = []
        let press: LongPressGestureRecognizer

        init(window: WaylandWindow) {
            self.window = window
            let view = View(id: "surface", frame: Rect(origin: .zero, size: window.size))
            press = LongPressGestureRecognizer { _ in }
            press.addTarget { [unowned self] r in states.append(r.state) }
            view.addGestureRecognizer(press)
            engine.addRoot(view)
            view.onTouches = { [unowned self] _, phase, _ in viewPhases.append(phase) }
        }

        func handle(_ event: LibinputInputEvent) { engine.handle(event) }
        var nextDeadline: Instant? { engine.nextDeadline }
        func advance(to now: Instant) {
            engine.advance(to: now)
            if press.state == .began, let window {
                window.destroy()        // mid-gesture: the finger is still down
                self.window = nil
                input?.stop()
            }
        }
        func finish() { engine.finish() }
    }

    @Test("a window destroyed mid long press: its touch is cancelled and the long press ends cancelled")
    func windowDestroyedMidGesture() throws {
        let session = try Compositor.start(trace: Compositor.fixture("synthetic-ts-wacom-long-press-drag-1f.evemu"),
                                           hold: true, client: "sleep 20")
        defer { session.remove() }
        defer { session.stopCompositor() }
        let socketUp = session.wait(seconds: 10) { FileManager.default.fileExists(atPath: session.waylandDisplay) }
        try #require(socketUp, "sway starts: \(session.swayLog.suffix(1000))")
        let connection = try WaylandConnection(display: session.waylandDisplay)
        defer { connection.disconnect() }
        let window = try WaylandWindow(connection: connection, title: "test", appID: "gesturekit",
                                       size: Size(width: 1000, height: 1000))
        let client = DestroyOnLongPress(window: window)
        let input = WaylandInput(connection: connection, window: window, duration: Compositor.leadIn + 5)
        client.input = input
        let reason = try input.run(client)
        #expect(reason == .stopped, "stopped by the client, not by the 7 s limit")
        #expect(client.states == [.began, .cancelled], "the long press begins, then is cancelled: \(client.states)")
        #expect(client.viewPhases.first == .began && client.viewPhases.last == .cancelled,
                "the view's touch begins and is cancelled: \(client.viewPhases)")
    }
}

