import ArgumentParser
import GestureKit
import GestureLive
import GestureMockDevice
#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit soak --through compositor`: the soak's mock devices read by a real compositor
/// (sway, headless: no display, no GPU; its libinput backend reading the devices under
/// umockdev), and `gesturekit listen --wayland` as its one client, full screen on a
/// 1000 × 1000 output, watching through a `SoakMonitor` (`listen --soak-summary`).
///
/// The run starts when the client is ready, not after a fixed wait: every device's script is
/// gated, and a script sway starts inside the testbed (gate.sh, under umockdev's preload)
/// waits for the client's ready file (its window at its final size, its seats bound), then
/// writes the gate's token to every node. An unplugged device is one sway's libinput removes;
/// the client sees the seat lose a capability only when the last device of it goes.
///
/// sway refuses to run as root: as root it runs as `--user`. Everything it needs (this tool,
/// the fix library, the scene, the device files) is copied into a directory of its own,
/// which is removed at the end unless the run failed (or `--keep`).
struct CompositorSoak {
    let recording: SoakRecording
    let library: SoakRecording.Library
    let kinds: [SoakDeviceKind]
    let scene: String
    let user: String?
    /// Keep the session's files even when the run passed.
    var keepFiles = false

    /// Seconds gate.sh waits for the client's ready file before it gives up (saying so in
    /// gate.err: the recording then never plays, and the run fails).
    static let readyTimeout = 60
    /// Seconds from the client's ready file to the run's first instant, at most (gate.sh polls
    /// every 20 ms and writes one node after another), with room for a loaded machine; the
    /// client listens this much longer.
    static let readyToRecording = 1.0
    /// Seconds the client keeps listening after the last device went.
    static let tail = 1.0
    /// The name each kind of mock device has (`SoakRecording`'s devices), as sway's log and
    /// identifiers spell it (spaces as underscores).
    static func swayName(_ kind: SoakDeviceKind, _ library: SoakRecording.Library) -> String? {
        library.descriptions[kind].map { String($0.name.map { $0 == " " ? "_" : $0 }) }
    }

    /// Whether this machine can run it: as root, `user` is needed and must exist.
    static func check(user: String?) throws {
        guard getuid() == 0 else { return }
        guard let user else {
            throw fail("--through compositor: sway refuses to run as root; name an unprivileged user to run it as with --user (make soak makes one, gesturekit-test)")
        }
        guard !user.isEmpty, user.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), getpwnam(user) != nil else {
            throw fail("--user: '\(user)' is not a user of this machine")
        }
        for program in ["sway", "swaymsg"] where findInPath(program) == nil {
            throw fail("\(program) is not installed (apt-get install sway; scripts/install-deps.sh installs it)")
        }
    }

    static func findInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    func run(_ out: LineWriter) throws {
        var template = Array("/tmp/gesturekit-soak-sway-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template).map({ String(cString: $0) }) else { throw fail("cannot make a temporary directory") }
        var keep = keepFiles
        defer { if !keep { _ = system("rm -rf '\(dir)'") } }
        mkdir(dir + "/run", 0o700)
        mkdir(dir + "/testbed", 0o755)
        chmod(dir, 0o755)
        var runner: UmockdevRunner
        do {
            runner = try UmockdevRunner()
        } catch {
            throw fail("\(error)")
        }
        guard system("cp '\(selfExecutable())' '\(dir)/gesturekit' && cp '\(runner.preloadLibrary)' '\(dir)/fix.so'") == 0 else {
            throw fail("cannot copy gesturekit and the umockdev fix library into \(dir)")
        }
        try writeFile(dir + "/scene.json", scene)
        let duration = Self.readyToRecording + recording.length + Self.tail
        let nodes = recording.devices.map(\.device.devicePath)
        try writeFile(dir + "/gate.sh", Self.gateScript(directory: dir, nodes: nodes))
        try writeFile(dir + "/sway.conf", """
            output HEADLESS-1 mode 1000x1000
            for_window [app_id=".*"] fullscreen enable
            exec sh -c 'env -u LD_PRELOAD \(dir)/gesturekit listen --wayland --screen 1000x1000 --scene \(dir)/scene.json --soak-summary \(dir)/summary.txt --ready-file \(dir)/ready --duration \(duration) > \(dir)/listen.out 2> \(dir)/listen.err; echo $? > \(dir)/listen.status; swaymsg exit'
            exec sh \(dir)/gate.sh

            """)
        runner.preloadLibrary = dir + "/fix.so"
        runner.timeout = duration + Double(Self.readyTimeout) + 60
        do {
            try runner.writeFiles(devices: recording.devices, directory: dir + "/testbed")
        } catch {
            throw fail("\(error)")
        }
        var launcher: [String] = []
        if getuid() == 0, let user {
            guard system("chown -R '\(user)' '\(dir)'") == 0 else { throw fail("cannot give \(dir) to \(user)") }
            launcher = ["/usr/sbin/runuser", "-u", user, "--"]
        }
        launcher += ["/usr/bin/env", "-u", "WAYLAND_DISPLAY", "-u", "DISPLAY", "-u", "SWAYSOCK",
                     "XDG_RUNTIME_DIR=\(dir)/run", "WLR_BACKENDS=headless,libinput", "WLR_RENDERER=pixman",
                     "LIBSEAT_BACKEND=builtin", "SEATD_VTBOUND=0"]
        let result = try runner.run(devices: recording.devices, filesIn: dir + "/testbed",
                                   command: ["/bin/sh", "-c", "exec sway -d -c \(dir)/sway.conf > \(dir)/sway.log 2>&1"],
                                   launcher: launcher)

        func read(_ name: String) -> String {
            readWholeFile(dir + "/" + name, limit: 512 << 20).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let summary = read("summary.txt")
        var lines = summary.split(separator: "\n").map(String.init)
        // Every mock device reached sway, and sway removed every one.
        let log = read("sway.log")
        for kind in kinds {
            guard let name = Self.swayName(kind, library) else { continue }
            let planned = recording.deviceKinds.filter { $0 == kind }.count
            let (added, removed) = Self.swayDevices(in: log, named: name)
            let line = "\(kind): sway added \(added) devices, removed \(removed) (its log)"
            lines.insert(line, at: 0)
            if added != planned || removed != planned {
                lines.append("FAILED: \(planned) mock \(kind)s were plugged in and unplugged; sway added \(added) and removed \(removed)")
            }
        }
        // Touches the compositor never ended (SoakMonitor.Summary.lostByCompositor): at most
        // one episode for each touchscreen unplugged mid-gesture.
        let cut = recording.unpluggedMidGesture[.touchscreen] ?? 0
        if let line = lines.first(where: { $0.hasPrefix("touches the compositor never ended: ") }),
           let count = Int(line.dropFirst("touches the compositor never ended: ".count).prefix { $0.isNumber }), count > cut {
            lines.append("FAILED: \(count) touch sequences were never ended, more than the \(cut) touchscreens unplugged mid-gesture could leave")
        }
        let listenStatus = read("listen.status").split(separator: "\n").first.flatMap { Int32($0) }
        if listenStatus != 0 {
            lines.append("FAILED: the client gesturekit listen --wayland ended with status \(listenStatus.map(String.init) ?? "none"): \(read("listen.err").suffix(1500))")
        }
        let gateError = read("gate.err")
        if !gateError.isEmpty { lines.append("FAILED: " + gateError.split(separator: "\n").joined(separator: "; ")) }
        if summary.isEmpty || result.timedOut {
            let why = result.timedOut ? "the session did not end in \(Int(runner.timeout)) s" : "the client wrote no summary"
            lines.append("FAILED: \(why); sway's log ends: \(log.suffix(1500))")
        }
        for line in lines { out.write("soak: \(line)") }
        if lines.contains(where: { $0.hasPrefix("FAILED: ") }) {
            keep = true
            out.write("soak: the session's files (sway.log, listen.err, gate.sh) are kept in \(dir)")
            out.flush()
            throw ExitCode(1)
        }
        if keep { out.write("soak: the session's files are kept in \(dir)") }
        out.write("soak: passed")
        out.flush()
    }

    /// How many devices named `name` sway's debug log says it added and removed.
    static func swayDevices(in log: String, named name: String) -> (added: Int, removed: Int) {
        var added = 0, removed = 0
        for line in log.split(separator: "\n") where line.contains(name) {
            if line.contains("adding device: '") { added += 1 }
            if line.contains("removing device: '") { removed += 1 }
        }
        return (added, removed)
    }

    /// gate.sh: waits for the client's ready file, then writes the gate's token to each node.
    static func gateScript(directory: String, nodes: [String]) -> String {
        """
        D=\(directory)
        end=$(( $(date +%s) + \(readyTimeout) ))
        while [ ! -e "$D/ready" ]; do
            if [ "$(date +%s)" -ge "$end" ]; then
                echo "gate.sh: the client never said it was ready (no $D/ready after \(readyTimeout) s): nothing was played" > "$D/gate.err"
                exit 1
            fi
            sleep 0.02
        done

        """ + nodes.map { node in
            "printf %s '\(LibinputReplay.gateToken)' > \(node) || echo \"gate.sh: cannot write the gate of \(node)\" >> \"$D/gate.err\"\n"
        }.joined()
    }
}
