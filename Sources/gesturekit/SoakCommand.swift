import ArgumentParser
import GestureKit
import GestureLive
import GestureMockDevice
import GestureTraces
#if canImport(Glibc)
import Glibc
#endif

/// `gesturekit soak`: minutes of random gestures through real libinput (docs/TESTING.md, "The soak").
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Minutes of random gestures from the recordings through real libinput (umockdev) into a scene with every recognizer kind and a scrolling layout.",
        discussion: """
        The gestures of the touchscreen, touchpad and mouse recordings (ts-*, tp-*, mouse-* and \
        their synthetic-* ones) are shuffled, moved, jittered and played, one at a time, on mock \
        devices of their kind: for each kind a series of devices, each plugged in for its own \
        share of --segment seconds, every third unplugged mid-gesture (fingers down, a button \
        held). `gesturekit listen` reads them with libinput in real time, under umockdev-run. At \
        the end it prints, per kind of device, the sequences, events and actions and the latency \
        from each event's kernel timestamp to the action it caused; then resident memory and the \
        recognizers found stuck. It fails (exit status 1) on a crash, a kind of device that \
        played nothing or whose events caused no action, a recognizer stuck out of possible, or \
        resident memory growing 1 MiB or more after the warm-up.
        """
    )

    @Option(help: "Minutes to run.")
    var minutes = 10.0

    @Option(help: "The seed of the random choices (the same seed gives the same gestures).")
    var seed: UInt64 = 1

    @Option(help: "Seconds each mock touchscreen stays plugged in (a touchpad ×0.75, a mouse ×1.5).")
    var segment = 60.0

    @Option(help: "The folder of recordings to take gestures from.")
    var fixtures = "Fixtures"

    @Option(help: "The kinds of device to play, comma-separated: touchscreen, touchpad, mouse.")
    var kinds = "touchscreen,touchpad,mouse"

    @Option(help: "The way in: libinput (gesturekit listen reads the mock devices), or compositor (headless sway reads them with its libinput; gesturekit listen --wayland is its client).")
    var through: SoakPath = .libinput

    @Option(help: "With --through compositor as root: the unprivileged user sway runs as (it refuses root).")
    var user: String?

    @Flag(help: "With --through compositor: keep the session's files (sway's log, the client's, the device scripts) even when the run passes.")
    var keep = false

    static let scene = """
    { "screen": [1000, 1000],
      "views": [{ "id": "root", "frame": [0, 0, 1000, 1000] }],
      "recognizers": [
        { "id": "tap", "kind": "tap", "view": "root", "requireToFail": ["doubleTap"] },
        { "id": "doubleTap", "kind": "tap", "view": "root", "taps": 2 },
        { "id": "twoFingerTap", "kind": "tap", "view": "root", "touches": 2 },
        { "id": "press", "kind": "longPress", "view": "root" },
        { "id": "pan", "kind": "pan", "view": "root", "maximumTouches": 1 },
        { "id": "pinch", "kind": "pinch", "view": "root" },
        { "id": "rotation", "kind": "rotation", "view": "root" },
        { "id": "swipe", "kind": "swipe", "view": "root", "direction": ["left", "right"], "touches": 2 },
        { "id": "edge", "kind": "screenEdgePan", "view": "root", "edges": ["left"] },
        { "id": "hover", "kind": "hover", "view": "root" } ],
      "simultaneous": [["pinch", "rotation"]],
      "layout": { "kind": "flow", "sections": [600], "itemSize": [120, 90], "minimumLineSpacing": 10,
        "minimumInteritemSpacing": 10, "sectionInset": [10, 10, 10, 10],
        "select": "tap", "reorder": "press", "scroll": "pan", "pinch": "pinch" } }
    """

    func run() throws {
        guard minutes > 0, segment >= 5 else { throw fail("--minutes must be above 0 and --segment at least 5 seconds") }
        var wanted: [SoakDeviceKind] = []
        for word in kinds.split(separator: ",") {
            guard let kind = SoakDeviceKind(rawValue: String(word)) else { throw fail("--kinds: '\(word)' is not touchscreen, touchpad or mouse") }
            wanted.append(kind)
        }
        guard !wanted.isEmpty else { throw fail("--kinds: name at least one kind of device") }
        let paths = try recordings()
        let library = try SoakRecording.Library(paths: paths)
        for kind in wanted where (library.gestures[kind] ?? []).isEmpty || library.descriptions[kind] == nil {
            throw fail("\(fixtures): no \(kind) gestures (\(Self.prefixes[kind]!.map { $0 + "*.evemu" }.joined(separator: ", ")))")
        }
        if through == .compositor { try CompositorSoak.check(user: user) }
        let recording = SoakRecording(library: library, kinds: wanted, seconds: minutes * 60, segmentSeconds: segment, seed: seed,
                                      gate: through == .compositor ? Array(LibinputReplay.gateToken.utf8) : nil)

        let out = LineWriter(fd: 1)
        let way = through == .libinput ? "libinput under umockdev" : "sway (headless, its libinput under umockdev) to a Wayland window"
        out.write("soak: seed \(seed), \(fmt1(recording.length)) s through \(way)")
        for kind in wanted {
            let devices = recording.deviceKinds.filter { $0 == kind }.count
            let description = kind == .touchscreen ? "" : " (\(library.descriptions[kind]!.name))"
            out.write("soak: \(kind): \(devices) mock devices\(description), \(recording.unpluggedMidGesture[kind] ?? 0) unplugged mid-gesture; "
                      + "\(recording.played[kind] ?? 0) gestures played from \(library.gestures[kind]!.count) cut from \(library.recordings[kind] ?? 0) recordings")
        }
        out.flush()
        if through == .compositor {
            try CompositorSoak(recording: recording, library: library, kinds: wanted, scene: Self.scene, user: user, keepFiles: keep).run(out)
            return
        }
        var template = Array("/tmp/gesturekit-soak-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template).map({ String(cString: $0) }) else { throw fail("cannot make a temporary directory") }
        defer {
            unlink(dir + "/scene.json")
            unlink(dir + "/summary.txt")
            rmdir(dir)
        }
        try writeFile(dir + "/scene.json", Self.scene)
        let duration = recording.length + 1
        var command = [selfExecutable(), "listen", "--duration", String(duration), "--screen", "1000x1000",
                       "--scene", dir + "/scene.json", "--soak-summary", dir + "/summary.txt"]
        for device in recording.devices { command += ["--device", device.device.devicePath] }
        let runner: UmockdevRunner
        do {
            runner = try UmockdevRunner(timeout: duration + 60)
        } catch {
            throw fail("\(error)")
        }
        let result = try runner.run(devices: recording.devices, command: command)
        let summary = readWholeFile(dir + "/summary.txt").map { String(decoding: $0, as: UTF8.self) } ?? ""
        var lines = summary.split(separator: "\n").map(String.init)
        // Every device planned reached libinput, kind by kind.
        for kind in wanted {
            let planned = recording.deviceKinds.filter { $0 == kind }.count
            let label = SoakMonitor.Summary.label(kind.inputKind)
            if !lines.contains(where: { $0.hasPrefix("\(label): devices added \(planned), removed \(planned);") }) {
                lines.append("FAILED: \(planned) mock \(kind)s were plugged in and unplugged; libinput did not announce them all")
            }
        }
        for line in lines { out.write("soak: \(line)") }
        out.flush()
        guard result.exitStatus == 0, !result.timedOut, !summary.isEmpty else {
            let why = result.timedOut ? "did not finish in \(Int(duration + 60)) s" : "exit status \(result.exitStatus.map(String.init) ?? "none")"
            // A crash fails the soak as its other findings do (exit status 1, as the help says).
            throw fail("soak: the listener \(why) (a crash?): \(result.stderr.suffix(2000))", status: 1)
        }
        if lines.contains(where: { $0.hasPrefix("FAILED: ") }) { throw ExitCode(1) }
        out.write("soak: passed")
        out.flush()
    }

    /// The recordings of each kind of device, by name.
    static let prefixes: [SoakDeviceKind: [String]] = [
        .touchscreen: ["ts-", "synthetic-ts-"], .touchpad: ["tp-", "synthetic-tp-"], .mouse: ["mouse-", "synthetic-mouse-"]]

    /// The touchscreen, touchpad and mouse recordings in `fixtures`.
    func recordings() throws -> [String] {
        guard let d = opendir(fixtures) else { throw fail("\(fixtures): cannot read the folder") }
        defer { closedir(d) }
        var names: [String] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let known = Self.prefixes.values.joined().contains { name.hasPrefix($0) }
            if known && name.hasSuffix(".evemu") { names.append(name) }
        }
        return names.sorted().map { "\(fixtures)/\($0)" }
    }
}

/// The way `gesturekit soak` feeds the scene.
enum SoakPath: String, ExpressibleByArgument, CaseIterable {
    case libinput, compositor
}
