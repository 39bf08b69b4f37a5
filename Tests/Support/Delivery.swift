import Foundation
import Testing

/// The late-read rule of the real-time tests (docs/TESTING.md, "Real-time tests"), stated once:
///
/// A session through a third party (umockdev's writer, libinput, a compositor, GTK's or SDL's
/// event loop, an X server) records what its client received (`--record`: each event at the
/// time the source gave it, and the moments a deadline moved the client's clock on). Then:
///
/// 1. **What was delivered is always the expectation.** The replay of that recording must give
///    what the client printed live: GestureKit read exactly what it received.
/// 2. **The recording's reading, when it arrived on time.** The same presses, lifts, buttons,
///    pen strokes and wheel detents as the fixture's, in the same order (nothing lost or
///    invented), each gap between them within `tolerance` of the fixture's, and no event read
///    more than `tolerance` after a deadline it came before. Only then must the client's
///    reading equal the fixture's built-in replay. A loaded machine may deliver a double tap's
///    second tap 200 ms late, and then one tap and one tap is the right reading; the test says
///    so and goes on.
///
/// A touchpad's gesture steps are not compared: which of them reach an app is the compositor's
/// and the toolkit's choice (GTK 4.8 passes no hold; KWin nested passes a pinch's first
/// scroll events as a wheel's), and the built-in decoder stands for libinput. Steps of a kind
/// the fixture has none of (a wheel made of a touchpad's scroll) are left out too.
package struct DeliveredInput {
    /// The discrete steps of the input, in order: "touch began", "button 272 released",
    /// "wheel", "pinch begin", "pen down", with their times in seconds.
    package let steps: [(time: Double, what: String)]
    /// Events read after the client's clock had passed their time (a deadline fired first): by
    /// how many seconds, and what.
    package let lateReads: [(by: Double, what: String)]

    /// Reads an input recording (docs/RECORDING.md), as a session's `--record` wrote it.
    package init(recording path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var steps: [(Double, String)] = []
        var late: [(Double, String)] = []
        var clock: Int64?
        var pressed: Set<String> = []
        for line in text.split(separator: "\n") {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let e = object["e"] as? String else { continue }
            let t = (object["t"] as? NSNumber)?.int64Value
            if e == "clock" {
                clock = t
                continue
            }
            if let c = clock, let t, e != "device-added" {
                if t <= c { late.append((Double(c - t) / 1e9, "\(e) at \(Double(t) / 1e9) s read after the clock reached \(Double(c) / 1e9) s")) }
                clock = nil
            }
            guard let t else { continue }
            let seconds = Double(t) / 1e9
            for what in Self.steps(of: e, object) {
                // A button's release with no press before it (a recording that starts with the
                // button held) is not a step: libinput passes no such release on.
                if what.hasPrefix("button ") {
                    let button = String(what.dropLast(what.hasSuffix(" pressed") ? 8 : 9))
                    if what.hasSuffix(" pressed") { pressed.insert(button) } else if pressed.remove(button) == nil { continue }
                }
                steps.append((seconds, what))
            }
        }
        self.steps = steps
        lateReads = late
    }

    private static func steps(of e: String, _ o: [String: Any]) -> [String] {
        switch e {
        case "touch":
            return (o["changes"] as? [[Any]] ?? []).compactMap { change in
                // A touch's end, by a lift or by a cancel. A source cancels a touch its widget lost or
                // its toolkit took, at a time of the app's, not the input's: a cancel is the same step
                // as a lift, and its time is not compared.
                guard change.count > 1, let phase = change[1] as? String, phase != "moved" else { return nil }
                return phase == "began" ? "touch began" : phase == "cancelled" ? "touch ended" + Self.cancelled : "touch ended"
            }
        case "pointer":
            switch o["kind"] as? String {
            case "button": return ["button \(o["button"] ?? "?") \((o["pressed"] as? Bool ?? false) ? "pressed" : "released")"]
            case "scroll" where o["scroll"] as? String == "discrete": return ["wheel"]
            default: return []
            }
        case "pen":
            guard let phase = o["phase"] as? String, phase == "down" || phase == "up" else { return [] }
            return ["pen \(phase)"]
        default:
            return []
        }
    }

    /// What marks a touch's end that was a cancel.
    private static let cancelled = " (cancelled)"

    /// How this delivery compares with `recorded` (the fixture's own input, as the built-in
    /// replay fed it: `gesturekit replay FIXTURE --record`).
    package func compared(with recorded: DeliveredInput, tolerance: Double = DeliveredInput.tolerance) -> Comparison {
        let kinds = Set(recorded.steps.map { $0.what.prefix { $0 != " " } })
        let delivered = self.steps.filter { kinds.contains($0.what.prefix { $0 != " " }) }
        let mine = delivered.map { $0.what.replacingOccurrences(of: Self.cancelled, with: "") }, theirs = recorded.steps.map(\.what)
        guard mine == theirs else {
            return Comparison(sameSteps: false, onTime: false,
                              account: "delivered \(mine.count) steps, the recording \(theirs.count): \(mine) against \(theirs)")
        }
        // The steps whose times are the input's: a cancel's is the app's.
        let timed = delivered.indices.filter { !delivered[$0].what.hasSuffix(Self.cancelled) }
        let steps = timed.map { delivered[$0] }, recordedSteps = timed.map { recorded.steps[$0] }
        func gaps(_ s: [(time: Double, what: String)]) -> [Double] { zip(s.dropFirst(), s).map { $0.time - $1.time } }
        var worst: (deviation: Double, index: Int)?
        for (i, (a, b)) in zip(gaps(steps), gaps(recordedSteps)).enumerated() where abs(a - b) > (worst?.deviation ?? 0) {
            worst = (abs(a - b), i)
        }
        let deviation = worst?.deviation ?? 0
        var account = "the same \(mine.count) steps, gaps within \(Int((deviation * 1000).rounded())) ms of the recording's"
        if let worst, deviation > tolerance {
            account += " (\(steps[worst.index].what) → \(steps[worst.index + 1].what): \(Int(((steps[worst.index + 1].time - steps[worst.index].time) * 1000).rounded())) ms delivered, \(Int(((recordedSteps[worst.index + 1].time - recordedSteps[worst.index].time) * 1000).rounded())) ms recorded)"
        }
        let late = lateReads.filter { $0.by > tolerance }
        if !late.isEmpty { account += "; read late: " + late.map(\.what).joined(separator: "; ") }
        return Comparison(sameSteps: true, onTime: deviation <= tolerance && late.isEmpty, account: account)
    }

    /// How far a delivered gap may be from the recorded one and still count as on time: 50 ms,
    /// a third of the smallest margin a fixture leaves to a recognizer's limit (a double tap's
    /// second tap, 0.16 s inside the 0.3 s interval).
    package static let tolerance = 0.05

    package struct Comparison: CustomStringConvertible {
        /// The same steps in the same order: nothing lost, nothing invented.
        package let sameSteps: Bool
        /// And each on time: the fixture's reading must then be the client's.
        package let onTime: Bool
        package let account: String
        package var description: String { account }
    }
}

/// What a session delivered, judged by the late-read rule (`DeliveredInput`): the replay of its
/// recording (`gesturekit replay RECORDING --json`, with `scene`), and how the delivery compares
/// with the fixture's own input (`gesturekit replay FIXTURE --record`).
package struct Delivery {
    /// The replay of what was delivered: what the client must have printed.
    package let replay: [JSONLine]
    package let comparison: DeliveredInput.Comparison

    /// `recording`: what the session's client received; `fixture`: the recording the session
    /// played; `scene`: the scene's JSON, when not the default.
    package init(recording: String, fixture: String, scene: String? = nil) throws {
        let tool = builtProduct("gesturekit")
        var sceneArguments: [String] = []
        var scenePath: String?
        if let scene {
            let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scene.json"
            try scene.write(toFile: path, atomically: true, encoding: .utf8)
            scenePath = path
            sceneArguments = ["--scene", path]
        }
        defer { if let scenePath { try? FileManager.default.removeItem(atPath: scenePath) } }
        let replayed = try runProcess(tool, ["replay", recording, "--json"] + sceneArguments, errors: .discard)
        replay = JSONLine.parse(replayed.output)
        comparison = try Self.compare(recording: recording, fixture: fixture)
    }

    /// How what was delivered (`recording`) compares with `fixture`'s own input (what
    /// `gesturekit replay FIXTURE --record` feeds the engine): for a client whose reading no
    /// replay can give (an app's real widgets), whether its timeline may be expected.
    package static func compare(recording: String, fixture: String) throws -> DeliveredInput.Comparison {
        let fixtureInput = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-fixture.input.jsonl"
        defer { try? FileManager.default.removeItem(atPath: fixtureInput) }
        _ = try runProcess(builtProduct("gesturekit"), ["replay", fixture, "--record", fixtureInput], output: .discard, errors: .discard)
        return try DeliveredInput(recording: recording).compared(with: DeliveredInput(recording: fixtureInput))
    }

    /// The recognitions the client must have made: the replay's.
    package var recognized: [String] { JSONLine.recognized(replay) }
}

/// What a session's client should have made of `fixture`, by the late-read rule (`Delivery`,
/// Tests/Support): the client's recognitions must be those of the replay of what it received
/// (`recording`), which must hold the fixture's steps, nothing lost or invented; the lines to
/// compare the rest with are the fixture's built-in replay when the input arrived on time,
/// otherwise the replay of what was delivered (and the test says how late it was).
package func expectedReading(live: [JSONLine], recording: String, fixture: String, scene: String? = nil, client: String = "the client",
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> (lines: [JSONLine], onTime: Bool) {
    try #require(FileManager.default.fileExists(atPath: recording), "\(client) recorded what it received (--record)", sourceLocation: sourceLocation)
    let delivery = try Delivery(recording: recording, fixture: fixture, scene: scene)
    #expect(delivery.comparison.sameSteps, "\(client) received the recording's presses, lifts and buttons: \(delivery.comparison)", sourceLocation: sourceLocation)
    #expect(JSONLine.recognized(live) == delivery.recognized,
            "\(client) reads what it received as its replay does: live \(JSONLine.recognized(live)), replayed \(delivery.recognized)", sourceLocation: sourceLocation)
    guard delivery.comparison.onTime else {
        print("*** \((fixture as NSString).lastPathComponent) through \(client): not delivered on time (\(delivery.comparison)); judged by what was delivered ***")
        return (delivery.replay, false)
    }
    return (try builtinReplay(fixture, scene: scene), true)
}

/// The built-in decoder's replay of a recording (`gesturekit replay --json`).
package func builtinReplay(_ trace: String, scene: String? = nil) throws -> [JSONLine] {
    var arguments = ["replay", trace, "--json"]
    var scenePath: String?
    if let scene {
        let path = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString)-scene.json"
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        scenePath = path
        arguments += ["--scene", path]
    }
    defer { if let scenePath { try? FileManager.default.removeItem(atPath: scenePath) } }
    return JSONLine.parse(try runProcess(builtProduct("gesturekit"), arguments, errors: .discard).output)
}

/// A reader with timers of its own on a loaded machine: umockdev's writer may write a frame late
/// (the emulated fingers pause), or the reader may read its frames late while its timers, on
/// the clock, fire first (libinput's hold, tap and scroll timeouts); the fix library's item 13
/// notes both. The reader may then rightly decide otherwise than on the recording's timing. For
/// a test that compares such a reader's decisions exactly (libinput against the built-in
/// decoder), `onTime` runs the reading again while that happened: the comparison is then made
/// on a reading that kept the recording's timing.
package enum MockDeviceTiming {
    /// A pause or a lateness this long or longer is not the recording's timing: 30 ms, a sixth
    /// of libinput's shortest timers (its 180 ms tap and hold timeouts).
    package static let tolerance = 0.030
    /// How many readings at most.
    package static let attempts = 4

    /// Runs `body` with the environment that turns the timing log on (pass it to the reader's
    /// process), up to `attempts` times while the input was off by more than `tolerance`; says on
    /// standard output each time it reads again. Returns the last result, and how far its input
    /// was off the recording's timing (seconds; 0 when the log noted nothing, which it does
    /// from 2 ms).
    package static func onTime<T>(_ what: String, _ body: ([String: String]) throws -> T) throws -> (result: T, offBy: Double) {
        var result: T?
        var offBy = 0.0
        for attempt in 1...attempts {
            let log = NSTemporaryDirectory() + "gesturekit-\(UUID().uuidString).pauses"
            defer { try? FileManager.default.removeItem(atPath: log) }
            result = try body(["GESTUREKIT_UMOCKDEV_PAUSE_LOG": log])
            let pauses = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            let longest = pauses.compactMap { line -> Double? in
                let words = line.split(separator: " ")
                return words.count > 2 ? Double(words[2]).map { $0 / 1000 } : nil
            }.max() ?? 0
            offBy = longest
            guard longest >= tolerance else { break }
            print("*** \(what): the input was \(Int((longest * 1000).rounded())) ms off the recording's timing (\(pauses.joined(separator: "; ").prefix(300)))"
                  + (attempt < attempts ? ": read again ***" : ": compared anyway ***"))
        }
        return (result!, offBy)
    }
}
