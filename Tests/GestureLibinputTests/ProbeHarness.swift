import Foundation
import GestureKit
import GestureMockDevice
import GestureTestSupport
import GestureTraces
import Testing

/// Runs gesturekit-libinput-probe under umockdev-run on mocked devices and parses its
/// JSON lines.
struct ProbeRun {
    var lines: [[String: Any]]
    var result: UmockdevRunResult

    var touchFrames: [[String: Any]] { lines.filter { $0["type"] as? String == "touch" } }
    var gestures: [[String: Any]] { lines.filter { $0["type"] as? String == "gesture" } }

    /// "kind/phase" of every gesture line, consecutive updates collapsed into one.
    var gestureSummary: [String] {
        var out: [String] = []
        for g in gestures {
            let s = "\(g["kind"]!)/\(g["phase"]!)"
            if s.hasSuffix("/update") && out.last == s { continue }
            out.append(s)
        }
        return out
    }

    /// The phases of each touch frame, e.g. ["began,began", "moved,moved", ...].
    var touchPhases: [String] {
        touchFrames.map { frame in
            (frame["changes"] as! [[String: Any]]).map { $0["phase"] as! String }.joined(separator: ",")
        }
    }
}

enum ProbeHarness {
    static var probePath: String { builtProduct("gesturekit-libinput-probe") }

    /// nil when umockdev-run is missing (the test is then skipped with a message).
    static var umockdevAvailable: Bool { UmockdevRunner.findUmockdevRun() != nil }

    /// A mock device's recording for the probe: gated, so it starts once the probe's libinput
    /// has opened the device (`--open-gate`), `leadIn` after, however long the probe took to
    /// start on a loaded machine.
    static func replay(device: MockDevice, events: [EvdevEvent], leadIn: Double = 0.2,
                       vanishAfter: Double? = nil) -> MockDeviceReplay {
        MockDeviceReplay(device: device, events: events, leadIn: leadIn, gate: Array(MockDeviceGate.token.utf8),
                         vanishAfter: vanishAfter)
    }

    /// Runs the probe on `replays` (made with `replay`) for `duration` seconds from when its
    /// libinput has opened them.
    static func run(_ replays: [MockDeviceReplay], duration: Double, screen: String = "1000x1000",
                    timeout: Double = 20, options: [String] = []) throws -> ProbeRun {
        let runner = try UmockdevRunner(timeout: timeout)
        let paths = replays.map(\.device.devicePath)
        let result = try runner.run(
            devices: replays, command: [probePath, "--duration", String(duration), "--screen", screen,
                                        "--open-gate", MockDeviceGate.token] + options + paths)
        var lines: [[String: Any]] = []
        for line in result.stdoutLines {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                Issue.record("probe printed a non-JSON line: \(line)\nstderr: \(result.stderr)")
                continue
            }
            lines.append(object)
        }
        return ProbeRun(lines: lines, result: result)
    }
}
