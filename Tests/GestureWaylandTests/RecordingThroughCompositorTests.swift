import Foundation
import GestureKit
import GestureLive
import GestureTestSupport
import Testing

/// What a live session received through a real compositor, recorded (`--record`), replays on
/// virtual time to exactly what the session printed live: through sway with GestureWayland
/// (`gesturekit listen --wayland`), and through sway with GTK 4 (`gesturekit-gtk`).
@Suite(.serialized, .enabled(if: Compositor.available, "\(Compositor.unavailableReason ?? "")"))
struct RecordingThroughCompositorTests {
    init() throws {
        let missing = Compositor.missingPrograms()
        try #require(missing.isEmpty, "install \(missing.joined(separator: ", ")) (scripts/install-deps.sh installs sway and umockdev)")
    }

    /// Runs `client` (with CLIENT_DIR) under sway on `fixture`'s devices, then replays its
    /// recording; returns what the client printed live and what the replay printed.
    static func roundTrip(_ fixture: String, client: (Double) -> String, copy: [String] = [],
                          nested: Compositor.Nested? = nil) throws -> (live: String, replayed: String, errors: String) {
        let trace = Compositor.fixture(fixture)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
            - LibinputReplay.leadInSeconds - LibinputReplay.tailSeconds
        let duration = Compositor.readyToRecording + length + Compositor.tail
        let session = try Compositor.start(trace: trace, listenSeconds: duration, client: client(duration), copy: copy,
                                           nested: nested, readiness: .file)
        defer { session.remove() }
        session.finish(timeout: duration + 20)
        #expect(session.clientStatus == 0, "\(fixture): the client exits with status 0; stderr: \(session.errors)")
        let replay = try runProcess(builtProduct("gesturekit"), ["replay", session.directory + "/recording.input.jsonl", "--json"])
        #expect(replay.status == 0, "\(fixture): the recording replays; stderr: \(replay.errors)")
        return (session.output, replay.output, session.errors)
    }

    @Test("recorded through sway by gesturekit listen --wayland --record, replayed: every line the live session printed, the same",
          arguments: ["ts-wacom-isdv4-e6-double-tap-1f.evemu", "synthetic-ts-wacom-long-press-drag-1f.evemu",
                      "synthetic-tp-elantech-pinch-out-2f.evemu"])
    func throughWayland(_ fixture: String) throws {
        let r = try Self.roundTrip(fixture) { duration in
            "CLIENT_DIR/gesturekit listen --wayland --json --ready-file CLIENT_DIR/ready --duration \(duration) --record CLIENT_DIR/recording.input.jsonl"
        }
        #expect(!r.live.isEmpty, "\(fixture): the live session printed something; stderr: \(r.errors)")
        #expect(r.replayed == r.live, "live:\n\(r.live)\nreplayed:\n\(r.replayed)")
    }

    @Test("recorded through weston nested in sway (a second compositor) by gesturekit listen --wayland --record, replayed: the same lines",
          .enabled(if: Compositor.Nested.weston.installed, "weston is not installed (scripts/install-deps.sh installs it)"))
    func throughWeston() throws {
        let r = try Self.roundTrip("ts-wacom-isdv4-e6-double-tap-1f.evemu", client: { duration in
            "CLIENT_DIR/gesturekit listen --wayland --json --ready-file CLIENT_DIR/ready --duration \(duration) --record CLIENT_DIR/recording.input.jsonl"
        }, nested: .weston)
        #expect(!r.live.isEmpty, "the live session through weston printed something; stderr: \(r.errors)")
        #expect(r.replayed == r.live, "live:\n\(r.live)\nreplayed:\n\(r.replayed)")
    }

    @Test("recorded through sway and GTK 4 by gesturekit-gtk --record, replayed: every line the live session printed, the same",
          arguments: ["ts-wacom-isdv4-e6-double-tap-1f.evemu", "synthetic-mouse-saitek-double-click.evemu"])
    func throughGTK(_ fixture: String) throws {
        let tool = builtProduct("gesturekit-gtk")
        let r = try Self.roundTrip(fixture, client: { duration in
            "env GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none CLIENT_DIR/gesturekit-gtk --json --ready-file CLIENT_DIR/ready --ready-size 1000x1000 --duration \(duration) --record CLIENT_DIR/recording.input.jsonl"
        }, copy: [tool])
        #expect(!r.live.isEmpty, "\(fixture): the GTK session printed something; stderr: \(r.errors)")
        #expect(r.replayed == r.live, "live:\n\(r.live)\nreplayed:\n\(r.replayed)")
    }

    @Test("recorded through sway and SDL by photowall --record (a fling in the wall's window), replayed: every event of the wall at the same time, coming to rest where it did live")
    func throughSDL() throws {
        let photowall = builtProduct("photowall")
        let trace = Compositor.fixture("synthetic-ts-wacom-flick-up-1f.evemu")
        let seconds = Compositor.leadIn + 4
        let session = try Compositor.start(
            trace: trace,
            client: "SDL_VIDEODRIVER=wayland CLIENT_DIR/photowall --duration \(seconds) --record CLIENT_DIR/recording.input.jsonl",
            copy: [photowall])
        defer { session.remove() }
        session.finish(timeout: seconds + 20)
        #expect(session.clientStatus == 0, "photowall exits with status 0 after --duration: \(session.errors)")
        let replay = try runProcess(photowall, ["--replay", session.directory + "/recording.input.jsonl", "--screen", "1000x1000"])
        #expect(replay.status == 0, "the wall's recording replays: \(replay.errors)")
        // "1.100 s  scroll: came to rest at 1040 pt": the wall's events with their times.
        func events(_ out: String) -> [String] { out.split(separator: "\n").map(String.init).filter { $0.contains(" s  ") } }
        let live = events(session.output), replayed = events(replay.output)
        #expect(live.contains { $0.contains("scroll: came to rest") }, "the fling comes to rest live: \(session.output) \(session.errors)")
        #expect(replayed == live, "live:\n\(live.joined(separator: "\n"))\nreplayed:\n\(replayed.joined(separator: "\n"))")
    }
}
