import Foundation
import GestureInput
import GestureKit
import GestureRecording
import GestureTestSupport
import GestureTesting
import GestureTestingTraces
import GestureTraces
import Testing

/// The flight recorder (docs/RECORDING.md, "The flight recorder"): the last seconds of input in
/// memory, bounded, written out on demand as a recording that replays on its own.
@Suite("The flight recorder: the last seconds of input in bounded memory, written out on demand")
struct FlightRecorderTests {
    static let screen = Size(width: 800, height: 600)
    static let device = InputDeviceID(2)

    /// An engine with a pan on its root, as the app the recorder sits in front of.
    static func app() -> (GestureEngine, View) {
        let engine = GestureEngine()
        let root = View(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        engine.addRoot(root)
        root.addGestureRecognizer(PanGestureRecognizer(name: "pan"))
        return (engine, root)
    }

    /// Busy input: every 1.5 s two fingers land, move for a second at 120 frames a second, and
    /// lift. `handle` gets each event.
    static func busy(seconds: Int, _ handle: (InputEvent) -> Void) {
        handle(.deviceAdded(InputDeviceInfo(id: device, name: "ELAN", systemName: "event4", kind: .touchscreen,
                                            capabilities: [.touch], sizeMillimetres: nil)))
        var gesture = 0
        while Double(gesture) * 1.5 + 1.1 < Double(seconds) {
            let start = Int64(Double(gesture) * 1.5 * 1e9)
            for step in 0...120 {
                let phase: TouchPhase = step == 0 ? .began : step == 120 ? .ended : .moved
                let x = 200 + Double(step) * 2.5 + Double(gesture % 7) * 0.015625
                handle(.touchFrame(TouchFrame(time: Instant(nanoseconds: start + Int64(step) * 8_333_333), device: device, changes: [
                    TouchChange(sourceID: 1, phase: phase, location: Point(x: x, y: 300.25 + Double(step) * 0.375)),
                    TouchChange(sourceID: 2, phase: phase, location: Point(x: x + 120.5, y: 340.125 - Double(step) * 0.25)),
                ])))
            }
            gesture += 1
        }
    }

    @Test("Ten minutes of busy input: the last minute is kept in under 1.6 MB; written out, it replays from the first moment with no touch down")
    func lastMinute() throws {
        let (engine, _) = Self.app()
        let flight = FlightRecorder(keeping: .seconds(60), source: .app, screen: Self.screen, passingTo: engine)
        var frames = 0
        Self.busy(seconds: 600) { event in
            if case .touchFrame = event { frames += 1 }
            flight.handle(event)
        }
        #expect(flight.ring.memoryBytes < 1_600_000, "a minute of busy input in \(flight.ring.memoryBytes) bytes")
        // Benchmarks/README.md, "Flight recorder", quotes this line.
        print("FlightRecorderTests: the last minute of busy input (\(frames / 10) two-finger frames) kept in \(flight.ring.memoryBytes) bytes")
        let path = scratchRecording("flight")
        defer { unlink(path) }
        let writer = try flight.write(to: path)
        #expect(writer.stopReason == "closed")
        var times: [Instant] = []
        var first: InputEvent?
        try TraceReader(path: path).run { event in
            if first == nil { first = event }
            if let t = event.time { times.append(t) }
        }
        guard case let .deviceAdded(info)? = first else { Issue.record("the device, added before the window, comes first"); return }
        #expect(info.id == Self.device)
        let span = (times.last! - times.first!).inSeconds
        #expect(times.first! >= Instant(seconds: 540) && span <= 60 && span > 58, "\(times.first!) to \(times.last!)")
        // Replayed into the same app: every gesture of the minute is a pan.
        let (replayed, _) = Self.app()
        let tester = GestureTester(engine: replayed)
        try tester.replay(recording: path)
        let pans = tester.account.components(separatedBy: "pan: possible → began").count - 1
        #expect(pans == 40, "the 40 gestures of the last minute are pans: \(pans)")
    }

    @Test("The moment the loop moved the clock to last is written at the end; a device removed before the window is not there")
    func clockAndDevices() throws {
        let (engine, _) = Self.app()
        let flight = FlightRecorder(keeping: .seconds(1), source: .app, screen: Self.screen, passingTo: engine)
        flight.handle(.deviceAdded(InputDeviceInfo(id: InputDeviceID(7), name: "gone", systemName: "", kind: .touchpad, capabilities: [], sizeMillimetres: nil)))
        flight.handle(.deviceRemoved(InputDeviceID(7), time: Instant(seconds: 0.5)))
        Self.busy(seconds: 5) { flight.handle($0) }
        flight.advance(to: Instant(seconds: 5.5))
        let path = scratchRecording("flight-clock")
        defer { unlink(path) }
        try flight.write(to: path)
        var clocks: [Instant] = []
        var devices: [InputDeviceID] = []
        try TraceReader(path: path).run(advancingClock: { clocks.append($0) }) { event in
            if case let .deviceAdded(info) = event { devices.append(info.id) }
        }
        #expect(clocks == [Instant(seconds: 5.5)] && devices == [Self.device], "clock \(clocks), devices \(devices)")
    }

    @Test("SIGUSR1 writes the last seconds into a directory as flight-PID-N.input.jsonl, never over a file there")
    func onSignal() throws {
        let dir = NSTemporaryDirectory() + "gesturekit-flight-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "someone's\n".write(toFile: "\(dir)/flight-\(getpid())-1.input.jsonl", atomically: false, encoding: .utf8)
        let (engine, _) = Self.app()
        let flight = FlightRecorder(keeping: .seconds(5), source: .app, screen: Self.screen, passingTo: engine)
        var written: [String] = []
        flight.writeOnSignal(SIGUSR1, into: dir) { if case let .success(path) = $0 { written.append(path) } }
        Self.busy(seconds: 3) { flight.handle($0) }
        // The test runs on a worker thread that blocks signals, as libdispatch's do; an app's
        // loop thread does not. Unblocked here, raise() delivers it before it returns.
        var usr1 = sigset_t(), previous = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &usr1, &previous)
        raise(SIGUSR1)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        flight.finish()
        #expect(written == ["\(dir)/flight-\(getpid())-2.input.jsonl"])
        #expect(try String(contentsOfFile: "\(dir)/flight-\(getpid())-1.input.jsonl", encoding: .utf8) == "someone's\n")
        var frames = 0
        try TraceReader(path: written.first ?? "").run { if case .touchFrame = $0 { frames += 1 } }
        #expect(frames == 2 * 121)
    }

    @Test("What the ring keeps is what the privacy lets through: touches on a private view at its centre")
    func privacy() throws {
        let (engine, root) = Self.app()
        let pad = View(id: "pad", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        root.addSubview(pad)
        let flight = FlightRecorder(source: .app, screen: Self.screen, passingTo: engine)
        flight.markPrivate(pad)
        Self.busy(seconds: 2) { flight.handle($0) }
        let lines = flight.ring.recordingLines().map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.filter { $0.contains("\"touch\"") }.allSatisfy { $0.contains("[1,\"moved\",400,300]") || !$0.contains("moved") },
                "\(lines.prefix(3))")
    }
}
