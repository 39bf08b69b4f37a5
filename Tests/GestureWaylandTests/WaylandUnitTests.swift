import Foundation
import GestureWayland
import Testing

/// What needs no compositor.
@Suite struct WaylandUnitTests {
    static let wrap: Int64 = 1 << 32
    /// (stamp, the last time widened, what the stamp must become)
    static let cases: [(UInt32, Int64, Int64)] = [
        (1_000, 900, 1_000),
        (UInt32.max - 5, wrap + 10, wrap - 6),          // a stamp from just before the wrap
        (3, wrap - 2, wrap + 3),                        // just after it
        (500, 7 * wrap + 400, 7 * wrap + 500),
    ]

    @Test("a compositor's 32-bit millisecond stamps widen onto the 64-bit clock, across their wrap")
    func widening() {
        for (raw, reference, expected) in Self.cases {
            #expect(WaylandConnection.widen(raw, near: reference) == expected, "\(raw) near \(reference)")
        }
    }

    @Test("listen --wayland with no compositor: exit status 2 and a message naming the display, never a crash")
    func noCompositor() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Compositor.tool)
        process.arguments = ["listen", "--wayland", "--duration", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = "gesturekit-no-such-display"
        environment["XDG_RUNTIME_DIR"] = NSTemporaryDirectory()
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "exit status 2: \(message)")
        #expect(message.contains("cannot connect to the Wayland compositor gesturekit-no-such-display"), "\(message)")
    }
}
