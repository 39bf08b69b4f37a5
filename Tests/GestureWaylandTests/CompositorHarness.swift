import Foundation
import GestureKit
import GestureLive
import GestureMockDevice
import GestureTestSupport
import GestureTraces
import Testing

/// A real Wayland compositor fed from a recording: sway 1.7, headless (no display, no GPU), its
/// libinput backend reading the recording's devices mocked by umockdev (`gesturekit mockdev`,
/// with GestureKit's umockdev fix library), and `gesturekit listen --wayland` as its one client,
/// full screen on a 1000 × 1000 output so surface coordinates are the scene's.
///
/// The recording starts when the client is ready, not after a fixed wait: each device's script
/// is gated (`gesturekit mockdev --gate`), and a script that sway starts inside the testbed
/// (gate.sh, under umockdev's preload, so /dev/input/eventN are the mock nodes) waits for the
/// client's ready file (`listen --ready-file`: its window configured at its final size, its
/// seats bound), then writes the gate's token to every node. A client that cannot say it is
/// ready (GTK, SDL, a test's own window) gets the gate opened `leadIn` after it starts.
///
/// sway refuses to run as root: as root, the compositor runs as the unprivileged user
/// `gesturekit-test` (created once with useradd); otherwise as the current user. Everything it
/// needs (the tool, the recording, the fix library) is copied into a directory of its own.
enum Compositor {
    static let user = CompositorUser.name
    static let tool = builtProduct("gesturekit")
    static func fixture(_ name: String) -> String { Fixtures.path(name) }

    /// For a client that cannot say it is ready: seconds from its start to the recording's
    /// first event, covering its start-up (a debug build, ~0.2 s) and its window going full
    /// screen, with room for a machine loaded by the rest of the test suite (2 s once lost a
    /// recording there).
    static let leadIn = 3.0
    /// For a client that says it is ready: at most this many seconds from its ready file to the
    /// recording's first event (gate.sh polls every 20 ms, writes one node after another, then
    /// `UmockdevScriptEncoder.gateSettleSeconds`), with room for a loaded machine. Its
    /// --duration, which counts from its ready file, adds this.
    static let readyToRecording = 1.0
    /// KWin 6.3 nested (Debian 13) drops the first touch that comes within moments of our
    /// window saying it is ready (measured: a recorded tap was nothing, a double tap one tap,
    /// with the gate opened at once; both right with the old 3 s after the start): seconds the
    /// gate waits after the ready file there. KWin 5.27 needs none.
    static let kwinSettle = 1.5
    /// Seconds gate.sh waits for the client's ready file before it gives up, saying so in
    /// gate.err (the recording then never plays).
    static let readyTimeout = 60
    /// The gate's token (`gesturekit mockdev --gate`).
    static let gateToken = LibinputReplay.gateToken
    /// Seconds the client keeps listening after the recording's last event.
    static let tail = 1.0

    /// Why the compositor cannot run on this machine, or nil when it can (`CompositorUser`).
    static var unavailableReason: String? { CompositorUser.unavailableReason }
    static var available: Bool { unavailableReason == nil }

    /// What needs installing, if anything (a failure, not a skip).
    static func missingPrograms() -> [String] {
        ["sway", "swaymsg", "umockdev-run"].filter { name in
            !(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
    }

    @discardableResult
    static func run(_ arguments: [String]) -> Int32 {
        (try? runProcess(arguments[0], Array(arguments.dropFirst()), output: .discard, errors: .discard))?.status ?? -1
    }

    /// One session's files and processes.
    final class Session {
        /// What the session's client received, as it received it, when it records
        /// (`--record CLIENT_DIR/recording.input.jsonl`: the harness's own `listen` client
        /// always does).
        static let recordingName = "recording.input.jsonl"
        var recording: String { directory + "/" + Self.recordingName }

        let directory: String
        let process: Process
        let started = Date()

        init(directory: String, process: Process) {
            self.directory = directory
            self.process = process
        }

        func read(_ name: String) -> String {
            (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
        }
        /// The client's standard output, its JSON lines.
        var output: String { read("listen.out") }
        /// The client's standard error, and gate.sh's word if the client never became ready.
        var errors: String { read("listen.err") + read("gate.err") }
        var swayLog: String { read("sway.log") }
        /// The client's exit status, once it has exited.
        var clientStatus: Int32? { Int32(read("listen.status").trimmingCharacters(in: .whitespacesAndNewlines)) }

        /// sway's process id, from its IPC socket's name (sway-ipc.<uid>.<pid>.sock).
        var swayPID: pid_t? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/run")) ?? []
            for name in names where name.hasPrefix("sway-ipc.") && name.hasSuffix(".sock") {
                let parts = name.split(separator: ".")
                if parts.count == 4, let pid = pid_t(parts[2]) { return pid }
            }
            return nil
        }

        /// Waits until `condition` holds or `seconds` pass; whether it held.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        /// Waits for the session to end by itself (the client's --duration, then `swaymsg exit`);
        /// at `timeout` everything left of it is killed.
        func finish(timeout: Double) {
            _ = wait(seconds: timeout) { !process.isRunning }
            if process.isRunning {
                if let pid = swayPID { kill(pid, SIGKILL) }
                process.terminate()
                _ = wait(seconds: 3) { !process.isRunning }
            }
        }

        /// Runs grim on the compositor's output with `arguments` (options, then the file);
        /// grim's exit status.
        @discardableResult
        func grim(_ arguments: [String]) throws -> Int32 {
            try runProcess("/usr/bin/env", ["WAYLAND_DISPLAY=\(waylandDisplay)", "XDG_RUNTIME_DIR=\(directory)/run", "grim"] + arguments,
                           output: .inherit, errors: .inherit).status
        }

        /// Runs `swaymsg` with `arguments` on this session's sway (its IPC socket); its exit status.
        @discardableResult
        func swaymsg(_ arguments: [String]) throws -> Int32 {
            try swaymsgOutput(arguments)?.status ?? -1
        }

        /// Runs swaymsg on this session's sway; its exit status and standard output, or nil
        /// when sway's socket is not there.
        func swaymsgOutput(_ arguments: [String]) throws -> (status: Int32, output: Data)? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/run")) ?? []
            guard let socket = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else { return nil }
            let run = try runProcess("/usr/bin/env", ["SWAYSOCK=\(directory)/run/\(socket)", "swaymsg"] + arguments, errors: .discard)
            return (run.status, run.outputData)
        }

        /// Whether sway has an input device of `type` (`touch`, `pointer`, `tablet_tool`, as
        /// `swaymsg -t get_inputs` says it): its libinput has opened the mock device.
        func swayHasInput(ofType type: String) -> Bool {
            guard let (status, data) = try? swaymsgOutput(["-t", "get_inputs"]), status == 0,
                  let inputs = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return false }
            return inputs.contains { $0["type"] as? String == type }
        }

        /// Waits until the recording's gate has opened (gate.sh wrote its token to every node:
        /// the recording plays `UmockdevScriptEncoder.gateSettleSeconds` later), then `seconds`
        /// more; whether the gate opened.
        @discardableResult
        func waitForRecording(thenSeconds seconds: Double) -> Bool {
            let opened = wait(seconds: Double(Compositor.readyTimeout) + 20) {
                FileManager.default.fileExists(atPath: directory + "/gate.opened")
            }
            usleep(useconds_t(seconds * 1_000_000))
            return opened
        }

        /// Says the client is ready (a test's own window, in a session started with
        /// `readiness: .file`): the recording starts.
        func ready() { FileManager.default.createFile(atPath: directory + "/ready", contents: Data("ready\n".utf8)) }

        /// The compositor's socket, for a client of the test process itself.
        var waylandDisplay: String { directory + "/run/wayland-1" }

        /// Ends the compositor now (SIGKILL: the test runner's children may have SIGTERM
        /// blocked) and waits for the session.
        func stopCompositor() {
            if let pid = swayPID { kill(pid, SIGKILL) }
            finish(timeout: 10)
        }

        /// Removes the session's files, unless GESTUREKIT_KEEP_SESSIONS=1 (docs/TESTING.md): then
        /// says where they are.
        func remove() {
            if ProcessInfo.processInfo.environment["GESTUREKIT_KEEP_SESSIONS"] == "1" {
                print("session kept: \(directory)")
                return
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Starts sway on `trace` with `gesturekit listen --wayland --json` as its client, which
    /// listens for the recording's length plus `tail` (or `listenSeconds`). `hold`: the
    /// recording stops before its first lift; `vanishAfter`: its devices vanish that long after
    /// its last event.
    /// `client`: another shell command for sway to start instead (its output goes to
    /// listen.out and listen.err too); `CLIENT_DIR` in it is the session's directory.
    /// `swayConfig`: more lines for sway's configuration (an `input` block: natural scrolling).
    /// `nested`: the client runs in a second compositor nested in sway (weston 10, wayland
    /// backend, kiosk shell: ../notes' SECOND-COMPOSITOR), so it meets that compositor's protocol
    /// behaviour over sway's libinput.
    /// `environment`: more `NAME=value` for sway (`WAYLAND_DEBUG=server`: every event it sends,
    /// with its serial, in sway.log).
    /// `fullscreen`: each window fills the output (the default); false tiles two windows side
    /// by side, each 500 × 1000, with no decoration.
    /// `readiness`: how the recording's gate knows the client is ready; by default, from the
    /// ready file for the harness's own `listen` client, `leadIn` after the start for another.
    static func start(trace: String, scene: String? = nil, hold: Bool = false, vanishAfter: Double? = nil,
                      listenSeconds: Double? = nil, client: String? = nil,
                      copy: [String] = [], swayConfig: String = "", nested: Nested? = nil,
                      environment: [String] = [], readiness: Readiness? = nil, fullscreen: Bool = true) throws -> Session {
        let readiness = readiness ?? (client == nil ? (nested == .kwin ? .fileThenSettle(kwinSettle) : .file) : .afterLeadIn)
        let fm = FileManager.default
        let directory = NSTemporaryDirectory() + "gesturekit-wayland-" + UUID().uuidString
        try fm.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: directory + "/testbed", withIntermediateDirectories: true)
        try copyExecutable(tool, to: directory + "/gesturekit")
        for file in copy {
            try copyExecutable(file, to: directory + "/" + (file.split(separator: "/").last.map(String.init) ?? file))
        }
        try fm.copyItem(atPath: trace, toPath: directory + "/trace.evemu")
        try fm.copyItem(atPath: try UmockdevFixLibrary.path(), toPath: directory + "/fix.so")
        var sceneArguments = ""
        if let scene {
            try scene.write(toFile: directory + "/scene.json", atomically: true, encoding: .utf8)
            sceneArguments = " --scene \(directory)/scene.json"
        }
        let devices = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000))
        let length = devices.duration - LibinputReplay.leadInSeconds - LibinputReplay.tailSeconds
        let duration = listenSeconds ?? (readyToRecording + readiness.settle + length + tail + (vanishAfter ?? 0))
        var listen = client?.replacingOccurrences(of: "CLIENT_DIR", with: directory)
            ?? "\(directory)/gesturekit listen --wayland --json --ready-file \(directory)/ready --duration \(duration)\(sceneArguments) --record \(directory)/\(Session.recordingName)"
        try readiness.gateScript(directory: directory, nodes: devices.replays.map(\.device.devicePath))
            .write(toFile: directory + "/gate.sh", atomically: true, encoding: .utf8)
        if let nested {
            try nested.script.write(toFile: directory + "/nested.sh", atomically: true, encoding: .utf8)
            try "exec \(listen)\n".write(toFile: directory + "/client.sh", atomically: true, encoding: .utf8)
            listen = "sh \(directory)/nested.sh \(directory)"
        }
        // Full screen: the client's window is the output. Otherwise windows tile side by side
        // with no border, title bar or gap: the first at x 0, the second at half the width.
        let layout = fullscreen
            ? "for_window [app_id=\".*\"] fullscreen enable\nfor_window [title=\".*\"] fullscreen enable"
            : "default_border none\ndefault_floating_border none\ngaps inner 0\ngaps outer 0\nfont pango:monospace 1"
        let config = """
        output HEADLESS-1 mode 1000x1000
        \(layout)
        \(swayConfig)
        exec sh -c 'env -u LD_PRELOAD \(listen) > \(directory)/listen.out 2> \(directory)/listen.err; echo $? > \(directory)/listen.status; swaymsg exit'
        exec sh \(directory)/gate.sh

        """
        try config.write(toFile: directory + "/sway.conf", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            _ = run(["/bin/chown", "-R", user, directory])
        }
        chmod(directory, 0o755)
        chmod(directory + "/run", 0o700)

        var command = ["/usr/bin/env", "-u", "WAYLAND_DISPLAY", "-u", "DISPLAY", "-u", "SWAYSOCK",
                       "XDG_RUNTIME_DIR=\(directory)/run",
                       "WLR_BACKENDS=headless,libinput", "WLR_RENDERER=pixman",
                       "LIBSEAT_BACKEND=builtin", "SEATD_VTBOUND=0",
                       "GESTUREKIT_UMOCKDEV_FIX=\(directory)/fix.so"] + environment + [
                       "\(directory)/gesturekit", "mockdev", "\(directory)/trace.evemu", "--out", "\(directory)/testbed",
                       "--gate", gateToken]
        if hold { command.append("--hold") }
        if let vanishAfter { command += ["--vanish-after", "\(vanishAfter)"] }
        command += ["--", "sway", "-d", "-c", "\(directory)/sway.conf"]
        if getuid() == 0 { command = ["/usr/sbin/runuser", "-u", user, "--"] + command }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let log = FileHandle(forWritingAtPath: { fm.createFile(atPath: directory + "/sway.log", contents: nil); return directory + "/sway.log" }())
        process.standardOutput = log
        process.standardError = log
        try process.run()
        return Session(directory: directory, process: process)
    }

    /// Copies a program through a descriptor opened close-on-exec. FileManager's copy opens
    /// its destination without O_CLOEXEC, so a process another test spawns meanwhile (a
    /// umockdev run) inherits the descriptor, and the copy cannot be executed while that process
    /// lives ("Text file busy", seen once with a umockdev test beside a session).
    static func copyExecutable(_ source: String, to destination: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination]) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination]) }
                offset += n
            }
        }
    }

    /// How the recording's gate knows the session's client is ready for it.
    enum Readiness {
        /// The client creates the session's `ready` file (`listen --ready-file CLIENT_DIR/ready`,
        /// or the test for its own window: `Session.ready()`).
        case file
        /// The client cannot say: the gate opens so the recording starts `leadIn` after it.
        case afterLeadIn
        /// The ready file, then this many seconds more (KWin nested: `kwinSettle`).
        case fileThenSettle(Double)

        /// Seconds the gate waits after the ready file.
        var settle: Double {
            if case let .fileThenSettle(seconds) = self { return seconds }
            return 0
        }

        /// gate.sh: waits (for the ready file, or `leadIn`), then writes the token to each node.
        func gateScript(directory: String, nodes: [String]) -> String {
            let wait: String
            switch self {
            case .file, .fileThenSettle:
                wait = """
                end=$(( $(date +%s) + \(readyTimeout) ))
                while [ ! -e "$D/ready" ]; do
                    if [ "$(date +%s)" -ge "$end" ]; then
                        echo "gate.sh: the client never said it was ready (no $D/ready after \(readyTimeout) s: its window never had its final size, or it never started): the recording was not played" > "$D/gate.err"
                        exit 1
                    fi
                    sleep 0.02
                done
                sleep \(settle)

                """
            case .afterLeadIn:
                wait = "sleep \(max(0, leadIn - UmockdevScriptEncoder.gateSettleSeconds))\n"
            }
            return "D=\(directory)\n" + wait + nodes.map { node in
                "printf %s '\(gateToken)' > \(node) || echo \"gate.sh: cannot write the gate of \(node)\" >> \"$D/gate.err\"\n"
            }.joined() + "date +%s.%N > \"$D/gate.opened\"\n"
        }
    }

    /// A compositor nested in sway, its client ours.
    enum Nested {
        /// weston 10 on its wayland backend with the kiosk shell (the client full screen in it).
        case weston
        /// KWin (5.27 on Debian 12, 6 on Debian 13) on its wayland backend, every window full screen by a window rule
        /// (kwinrulesrc; a session's own `kwinrulesrc` file, copied in, replaces it), under its own D-Bus session. Its binary carries a file capability
        /// (cap_sys_resource) that a container's bounding set may lack, so a copy without it
        /// runs (../notes' SECOND-COMPOSITOR).
        case kwin

        /// The script sway starts: the nested compositor, then (once it is up) the client
        /// (client.sh in the session's directory, its first argument); it prints the client's
        /// output and exits with its status.
        var script: String {
            let client = """
            cat > $D/inner.sh <<EOF
            #!/bin/sh
            sh $D/client.sh > $D/nested.out 2> $D/nested.err
            echo \\$? > $D/nested.status
            EOF
            chmod +x $D/inner.sh

            """
            let report = """
            cat $D/nested.out 2>/dev/null
            cat $D/nested.err >&2 2>/dev/null
            exit $(cat $D/nested.status 2>/dev/null || echo 70)

            """
            switch self {
            case .weston:
                return "D=$1\n" + client + """
                weston --backend=wayland-backend.so --use-pixman --width=1000 --height=1000 --shell=kiosk-shell.so \\
                    --socket=wayland-w --idle-time=0 --no-config --log=$D/weston.log &
                W=$!
                i=0
                while [ ! -S "$XDG_RUNTIME_DIR/wayland-w" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
                WAYLAND_DISPLAY=wayland-w sh $D/inner.sh
                kill $W

                """ + report
            case .kwin:
                return "D=$1\n" + client + """
                mkdir -p $D/config
                if [ -e $D/kwinrulesrc ]; then cp $D/kwinrulesrc $D/config/kwinrulesrc; else
                printf '[General]\\ncount=1\\nrules=1\\n\\n[1]\\nDescription=every window full screen\\nfullscreen=true\\nfullscreenrule=2\\n' > $D/config/kwinrulesrc
                fi
                cp "$(command -v kwin_wayland)" $D/kwin_wayland
                # KWin 6 dropped --no-kactivities: pass the options this KWin has.
                options=""
                for o in --no-lockscreen --no-global-shortcuts --no-kactivities; do
                    $D/kwin_wayland --help 2>/dev/null | grep -q -- "$o" && options="$options $o"
                done
                # HOME is the session's directory: KWin drops its clients when it cannot write its
                # caches there (measured: the test user's home left owned by an older uid, and
                # the client's first request met a broken pipe).
                dbus-run-session -- env HOME=$D KWIN_COMPOSE=Q XDG_CONFIG_HOME=$D/config $D/kwin_wayland \\
                    --wayland-display "$WAYLAND_DISPLAY" --socket wayland-k --width 1000 --height 1000 \\
                    $options --exit-with-session $D/inner.sh > $D/kwin.log 2>&1

                """ + report
            }
        }

        /// Whether it is installed (scripts/install-deps.sh installs weston and KWin).
        var installed: Bool {
            let program = self == .weston ? "weston" : "kwin_wayland"
            return (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        }
    }

    /// Runs a whole session and returns it (files still there; call `remove()`).
    static func session(trace: String, scene: String? = nil, swayConfig: String = "", nested: Nested? = nil) throws -> Session {
        let session = try start(trace: trace, scene: scene, swayConfig: swayConfig, nested: nested)
        let length = try LibinputReplay.mockDevices(tracePath: trace, screen: Size(width: 1000, height: 1000)).duration
        session.finish(timeout: leadIn + length + tail + 20 + Double(readyTimeout))
        return session
    }
}

/// One JSON line of `gesturekit` output (GestureTestSupport's).
typealias Line = JSONLine

extension JSONLine {
    /// The y translation of each time `recognizer` ended (a pan's scroll), in order.
    static func endedTranslations(_ lines: [Line], of recognizer: String) -> [Double] {
        lines.filter { $0.recognizer == recognizer && $0.to == "ended" }
            .compactMap { ($0.object["translation"] as? [NSNumber])?[1].doubleValue }
    }

    /// A pen's lines as strokes: each phase with its tool, a run of hover or of moved taken as
    /// one (a compositor may merge hardware frames on a loaded machine: wlroots sends a tool's
    /// frame when its event loop is idle), and a tool taken out of proximity and brought back
    /// with nothing between as the one hover it was (a loaded sway has done that between a
    /// double tap's strokes, and before the first).
    static func strokes(_ lines: [Line]) -> [String] {
        var out: [String] = []
        for line in lines where line.type == "pen" {
            let tool = "\(line.object["tool"] ?? "")"
            let step = "\(line.phase) \(tool)"
            if (line.phase == "hover" || line.phase == "moved"), out.last == step { continue }
            if line.phase == "hover", out.last == "out \(tool)", out.dropLast().last == step {
                out.removeLast()
                continue
            }
            out.append(step)
        }
        return out
    }
}

