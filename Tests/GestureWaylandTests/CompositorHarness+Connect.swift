import Foundation
import Testing
@testable import GestureWayland

extension Compositor.Session {
    /// A connection to the compositor's socket at `socket` (sway's own by default), once it
    /// accepts one. The socket's file exists from its bind, and the compositor accepts once it
    /// listens: on a loaded machine a client that connects in between is refused
    /// ("Connection refused"), so the connection is tried again until it is accepted or
    /// `seconds` pass (then the last refusal and the compositor's log are the failure).
    func connect(socket: String? = nil, within seconds: Double = 20) throws -> WaylandConnection {
        let path = socket ?? waylandDisplay
        let socketUp = wait(seconds: seconds) { FileManager.default.fileExists(atPath: path) }
        try #require(socketUp, "the compositor makes its socket \(path) within \(seconds) s: \(swayLog.suffix(1000))")
        var opened: WaylandConnection?
        var refused: (any Error)?
        _ = wait(seconds: seconds) {
            do { opened = try WaylandConnection(display: path) } catch { refused = error }
            return opened != nil
        }
        return try #require(opened, "the compositor accepts a client on \(path) within \(seconds) s: \(refused.map { "\($0)" } ?? ""); \(swayLog.suffix(1000))")
    }
}
