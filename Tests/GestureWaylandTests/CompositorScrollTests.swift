import Foundation
import GestureKit
import GestureLive
import GestureTraces
import GestureTestSupport
import Testing
@testable import GestureWayland

/// Issue 28's "the same wheel and touchpad recordings scroll the same distance, in the same
/// direction, through libinput, sway, and a second compositor": one wheel recording and one
/// two-finger touchpad scroll, each through sway 1.7 itself, weston 10 nested in it and KWin
/// nested in it (libinput's side: PointerAgreementTests), read against the built-in replay.
/// Each case prints its figures (points a detent, distance, sign, what the compositor sent) as
/// a line starting "scroll figures:".
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorScrollTests {
    init() throws {
        let missing = Compositor.missingPrograms()
            + (Compositor.Nested.weston.installed ? [] : ["weston"]) + (Compositor.Nested.kwin.installed ? [] : ["kwin-wayland"])
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs them)")
    }

    enum Path: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sway, weston, kwin
        var nested: Compositor.Nested? {
            switch self {
            case .sway: nil
            case .weston: .weston
            case .kwin: .kwin
            }
        }
        var testDescription: String { self == .sway ? "sway" : "\(rawValue) nested in sway" }
    }

    static let wheel = "synthetic-mouse-saitek-wheel.evemu"
    static let touchpad = "synthetic-tp-elantech-scroll-down-2f.evemu"

    /// Both kinds of scroll pan, so a scroll that arrives as the other kind shows.
    static let scene = SeatNineScrollingTests.scene

    /// How far a touchpad scroll through a compositor may be from the built-in replay's
    /// distance: libinput's own (PointerAgreementTests allows 3 % on this recording; sway's
    /// libinput is the same library) plus the protocol's 24.8 fixed point.
    static let touchpadTolerance = 0.03

    /// The detents of `trace`'s wheel: the sum of its REL_WHEEL values, and of their sizes.
    static func detents(_ trace: String) throws -> (net: Int, turned: Int) {
        let reader = try TraceReader(path: trace)
        var net = 0, turned = 0
        for device in reader.devices {
            try reader.forEachEvdevEvent(device: device.id) { event in
                if event.type == .rel, event.code.rawValue == 0x08 {     // REL_WHEEL
                    net += Int(event.value)
                    turned += abs(Int(event.value))
                }
            }
        }
        return (net, turned)
    }

    /// What a session scrolled: the ended translations of each pan, and the client's axis
    /// events (WAYLAND_DEBUG), their names counted and their vertical values summed.
    struct Scrolled {
        var wheel: [Double]
        var continuous: [Double]
        var axisEvents: [String: Int]
        var axisValues: Double

        init(_ lines: [Line], debug: String) {
            wheel = Line.endedTranslations(lines, of: "wheelPan")
            continuous = Line.endedTranslations(lines, of: "scrollPan")
            axisEvents = [:]
            axisValues = 0
            for line in debug.split(separator: "\n") where (line.contains("wl_pointer@") || line.contains("wl_pointer#")) && line.contains(".axis") {
                guard let open = line.range(of: ".axis"), let paren = line[open.lowerBound...].firstIndex(of: "(") else { continue }
                let name = String(line[line.index(after: open.lowerBound)..<paren])
                axisEvents[name, default: 0] += 1
                // axis(time, axis, value): axis 0 is vertical.
                let arguments = line[line.index(after: paren)...].prefix { $0 != ")" }.split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                if name == "axis", arguments.count == 3, arguments[1] == "0", let v = Double(arguments[2]) { axisValues += v }
            }
        }

        var description: String {
            "wheelPan ended \(wheel), scrollPan ended \(continuous); the client received "
                + axisEvents.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
                + ", vertical axis values summing to \(String(format: "%.2f", axisValues))"
        }
    }

    /// A session's scrolls, the compositor's log, and what it should have scrolled by the
    /// late-read rule (`expectedReading`).
    static func session(_ path: Path, _ trace: String) throws -> (Scrolled, String, expected: Scrolled) {
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let duration = Compositor.readyToRecording + length + Compositor.tail
        let session = try Compositor.start(
            trace: trace, scene: scene,
            client: "env WAYLAND_DEBUG=client CLIENT_DIR/gesturekit listen --wayland --json --ready-file CLIENT_DIR/ready --duration \(duration) --scene CLIENT_DIR/scene.json --record CLIENT_DIR/\(Compositor.Session.recordingName)",
            nested: path.nested, readiness: .file)
        session.finish(timeout: duration + 20)
        defer { session.remove() }
        let lines = CompositorTests.lines(of: session, "\(trace) through \(path)")
        let log = path == .sway ? "" : session.read(path == .weston ? "weston.log" : "kwin.log")
        let expected = try expectedReading(live: lines, recording: session.recording, fixture: trace, scene: scene, client: "GestureWayland through \(path)").lines
        return (Scrolled(lines, debug: session.errors), String(log.suffix(600)), Scrolled(expected, debug: ""))
    }

    static func sign(_ x: Double) -> String { x > 0 ? "+" : x < 0 ? "−" : "0" }

    /// Whether the compositor passes the axis source on to its client. weston 10 and KWin nested
    /// send their client axis values alone (measured: no `axis_source`, no `axis_discrete`;
    /// KWin binds sway's `wl_pointer` below version 5, where the source begins), so a client
    /// cannot tell two fingers from a wheel, and GestureKit takes a source-less axis as a wheel.
    static func sendsSource(_ path: Path) -> Bool { path == .sway }

    @Test("a wheel and a two-finger touchpad scroll through sway, weston and KWin: the wheel scrolls the built-in replay's points (15 a detent) in its direction on every compositor; the touchpad scroll scrolls the replay's distance in its direction through sway, and through weston and KWin nested, which drop the axis source, arrives as a wheel of the same distance the other way (a wheel's values are turned to drag the content, a finger scroll follows the fingers)",
          arguments: Path.allCases, [wheel, touchpad])
    func scroll(_ path: Path, _ fixture: String) throws {
        let trace = Compositor.fixture(fixture)
        let builtin = Scrolled(try builtinReplay(trace, scene: Self.scene), debug: "")
        let (through, log, expected) = try Self.session(path, trace)
        #expect((through.axisEvents["axis_source"] != nil) == Self.sendsSource(path),
                "\(path) \(Self.sendsSource(path) ? "sends" : "sends no") axis_source: \(through.axisEvents)")
        if fixture == Self.wheel {
            let detents = try Self.detents(trace)
            let perDetent = through.wheel.map(abs).reduce(0, +) / Double(detents.turned)
            print("scroll figures: \(path) wheel: \(perDetent) pt a detent (\(detents.turned) detents turned, net \(detents.net)), "
                  + "\(through.wheel.reduce(0, +)) pt net (built-in \(builtin.wheel.reduce(0, +))); \(through.description)")
            #expect(through.wheel == expected.wheel, "the same wheel scrolls: \(path) \(through.wheel), expected \(expected.wheel) (built-in \(builtin.wheel))\n\(log)")
            #expect(through.wheel.reduce(0, +) == builtin.wheel.reduce(0, +), "the same distance: \(path) \(through.wheel), built-in \(builtin.wheel)")
            #expect(perDetent == GestureDefaults.wheelPointsPerDetent, "\(GestureDefaults.wheelPointsPerDetent) pt a detent through \(path)")
            #expect(through.continuous.isEmpty, "a wheel is no continuous scroll: \(through.continuous)")
        } else {
            let expected = builtin.continuous.reduce(0, +)
            let distance = through.continuous.reduce(0, +), asWheel = through.wheel.reduce(0, +)
            print("scroll figures: \(path) touchpad: \(distance) pt continuous, \(asWheel) pt as a wheel "
                  + "(built-in \(expected) pt, sign \(Self.sign(expected))); \(through.description)")
            #expect(expected > 0, "the recording scrolls down: built-in \(builtin.continuous)")
            if Self.sendsSource(path) {
                #expect(abs(distance - expected) <= Self.touchpadTolerance * abs(expected),
                        "the touchpad scroll through \(path) \(distance) pt, built-in \(expected) pt\n\(log)")
                #expect(through.wheel.isEmpty, "a touchpad scroll is no wheel: \(through.wheel)")
            } else {
                #expect(through.continuous.isEmpty, "without a source no scroll is continuous: \(through.continuous)")
                #expect(abs(-asWheel - expected) <= Self.touchpadTolerance * abs(expected),
                        "the touchpad scroll through \(path) arrives as a wheel of the same distance the other way: \(asWheel) pt, built-in \(expected) pt\n\(log)")
            }
        }
    }
}

/// `gesturekit listen --latency` through sway: how long a pen stroke's actions take from the
/// tablet events' timestamps (sway's are libinput's kernel timestamps, in whole milliseconds).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct CompositorPenLatencyTests {
    /// The most a latency may read on a machine busy with the rest of the suite: more means the
    /// compositor's times are not where the client takes them to be (CLOCK_MONOTONIC).
    static let latencyLimitMilliseconds = 1000.0

    @Test("a pen stroke through sway: listen --latency times every action the pen causes from its event's timestamp, none before its event and none a second late")
    func penStroke() throws {
        let trace = Compositor.fixture("pen-wacom-cintiq12wx-stroke-eraser.evemu")
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        let duration = Compositor.readyToRecording + length + Compositor.tail
        let session = try Compositor.start(
            trace: trace, scene: CompositorPenTests.scene,
            client: "CLIENT_DIR/gesturekit listen --wayland --latency --json --ready-file CLIENT_DIR/ready --duration \(duration) --scene CLIENT_DIR/scene.json", readiness: .file)
        session.finish(timeout: duration + 20)
        defer { session.remove() }
        let lines = CompositorTests.lines(of: session, "a pen stroke through sway")
        let report = try #require(session.errors.split(separator: "\n").first { $0.contains("latency, pen event's timestamp") },
                                  "listen --latency reports the pen's actions: \(session.errors.suffix(600))")
        print("pen latency through sway: \(report)")
        func number(after word: String) -> Double? {
            guard let range = report.range(of: word) else { return nil }
            return Double(report[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
        }
        let p50 = try #require(number(after: "p50 ")), maximum = try #require(number(after: "max "))
        let count = try #require(number(after: "("))
        let actions = lines.filter { $0.type == "state" && ["began", "changed", "ended", "cancelled"].contains($0.to) }.count
        #expect(count > 0 && count <= Double(actions), "\(count) pen actions timed of the \(actions) actions listen printed")
        #expect(p50 >= 0, "no action before its event: p50 \(p50) ms")
        #expect(maximum < Self.latencyLimitMilliseconds, "no action a second late: max \(maximum) ms")
    }
}
