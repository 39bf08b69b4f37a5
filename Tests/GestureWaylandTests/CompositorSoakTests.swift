import Foundation
import Testing
import GestureTestSupport

/// `gesturekit soak --through compositor` for a minute (make soak runs it for ten): random
/// gestures from the touchscreen, touchpad and mouse recordings on three mock touchscreens,
/// four touchpads and two mice (one of each unplugged mid-gesture), read by headless sway with
/// its libinput, into `gesturekit listen --wayland`'s window.
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorSoakTests {
    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs them)")
    }

    /// The mock devices of each kind a minute in segments of 20 s plugs in (a touchpad's
    /// segment is 15 s, a mouse's 30 s).
    static let devices = [("touchscreen", 3), ("touchpad", 4), ("mouse", 2)]

    @Test("a minute of random touchscreen, touchpad and mouse gestures through sway: sway adds and removes every device, no recognizer is stuck, memory is flat, the touchscreen and the pointer are acted on, and it says how fast")
    func oneMinute() throws {
        var arguments = ["soak", "--through", "compositor", "--minutes", "1", "--segment", "20", "--seed", "7",
                         "--fixtures", Fixtures.directory.path]
        if getuid() == 0 { arguments += ["--user", Compositor.user] }
        let run = try runProcess(Compositor.tool, arguments)
        let output = run.output, errors = run.errors
        print(output)
        #expect(run.status == 0, "the soak passes: \(output)\n\(errors)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.last == "soak: passed", "it ends by saying it passed: \(lines.suffix(3))")
        #expect(lines.contains("soak: recognizers stuck: 0"), "no recognizer was found stuck")
        #expect(lines.contains("soak: sequences never ended: 0"), "every touch lifted, every button released, every gesture and scroll ended")
        for (kind, count) in Self.devices {
            #expect(lines.contains("soak: \(kind): sway added \(count) devices, removed \(count) (its log)"),
                    "sway's libinput added and removed the \(count) mock \(kind)s: \(lines.filter { $0.contains("sway added") })")
            let plan = lines.first { $0.hasPrefix("soak: \(kind): ") && $0.contains("mock devices") }
            #expect(plan?.contains(" 1 unplugged mid-gesture") == true, "one \(kind) is unplugged mid-gesture: \(plan ?? "")")
        }
        // Through the seat, every touchscreen is one touch device, every touchpad and mouse one pointer.
        for name in ["touchscreen", "pointer"] {
            let line = lines.first { $0.hasPrefix("soak: \(name): seat devices added ") }
            let sequences = line.flatMap { Self.number(after: "; ", in: $0) } ?? 0
            let actions = line.flatMap { Self.number(after: "actions fired ", in: $0) } ?? 0
            #expect(sequences > 0, "the \(name) played gestures: \(line ?? "no line for the \(name)")")
            #expect(actions > 0, "the \(name)'s events made recognizers act: \(line ?? "")")
            #expect(lines.contains { $0.hasPrefix("soak: \(name): latency, compositor timestamp (whole ms) to its action: p50 ")
                        && !$0.contains("none") },
                    "it reports the latency from the compositor's timestamps of the \(name) to the actions")
        }
    }

    /// The integer in `line` right after the first `after`.
    static func number(after: String, in line: String) -> Int? {
        guard let start = line.range(of: after)?.upperBound else { return nil }
        return Int(line[start...].prefix { $0.isNumber })
    }
}
