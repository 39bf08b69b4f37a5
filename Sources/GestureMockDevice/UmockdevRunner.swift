import GestureKit
import GestureTraces
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One device to mock: its description, its replay, and options.
public struct MockDeviceReplay: Sendable {
    public var device: MockDevice
    /// The umockdev script (see `UmockdevScriptEncoder`).
    package var script: [UInt8]

    package init(device: MockDevice, script: [UInt8]) {
        self.device = device
        self.script = script
    }

    /// Replays `events` after `leadIn` seconds; `gate`: only once these bytes are written to the
    /// node, `leadIn` then counting from that write (`MockDeviceGate` writes them);
    /// `vanishAfter`: seconds after the last frame at which the device disappears (reads fail
    /// with ENODEV), or nil to stay.
    public init(device: MockDevice, events: [EvdevEvent], leadIn: Double = 0.2, gate: [UInt8]? = nil,
                vanishAfter: Double? = nil) {
        self.device = device
        self.script = UmockdevScriptEncoder.script(for: events, leadIn: leadIn, gate: gate,
                                                   vanishAfter: vanishAfter)
    }

    /// Whether the script waits for a gate: it begins with a write operation.
    package var isGated: Bool { script.starts(with: Array("w ".utf8)) }
}

public enum UmockdevRunError: Error, Hashable, Sendable, CustomStringConvertible {
    case umockdevRunMissing(searchPath: String)
    case preloadLibraryMissing(searched: [String])
    /// No C compiler to build the preload library with.
    case compilerMissing
    /// The C compiler failed on the preload library's source.
    case buildFailed(compiler: String, output: String)
    case cannotWriteFiles(directory: String, errno: Int32)
    case launchFailed(program: String, errno: Int32)

    public var description: String {
        switch self {
        case let .umockdevRunMissing(searchPath):
            return "umockdev-run was not found in PATH (\(searchPath)). Install the Debian/Ubuntu "
                + "package 'umockdev' (apt-get install umockdev)."
        case let .preloadLibraryMissing(searched):
            return "GestureKit's umockdev fix library (libGestureKitUmockdevFix.so) was not found "
                + "and could not be built (\(searched.joined(separator: "; "))). "
                + "Install a C compiler ('sudo apt-get install gcc') and run again, "
                + "or set GESTUREKIT_UMOCKDEV_FIX to the library's path."
        case .compilerMissing:
            return "no C compiler (cc, gcc or clang) in PATH to build the umockdev fix library"
        case let .buildFailed(compiler, output):
            return "\(compiler) could not build the umockdev fix library: \(output)"
        case let .cannotWriteFiles(directory, errno):
            return "Cannot write the mock device files in \(directory): "
                + String(cString: strerror(errno))
        case let .launchFailed(program, errno):
            return "Cannot launch \(program): " + String(cString: strerror(errno))
        }
    }
}

/// What a run under umockdev produced.
public struct UmockdevRunResult: Sendable {
    /// The child's standard output, split into lines.
    public var stdoutLines: [String]
    public var stderr: String
    /// Exit status of umockdev-run (which passes the child's on), if it exited.
    public var exitStatus: Int32?
    /// The signal that ended it, if one did.
    public var signal: Int32?
    /// The run was killed at the timeout.
    public var timedOut: Bool
    /// Wall-clock seconds from launch to exit.
    public var elapsed: Double
    /// The command line that was run.
    public var command: [String]
}

/// Runs a command under `umockdev-run` with mocked evdev devices and GestureKit's umockdev
/// fix library preloaded in front of umockdev's own.
///
/// umockdev-run appends `libumockdev-preload.so.0` to the LD_PRELOAD it inherits and runs
/// the child with it; anything put in LD_PRELOAD before umockdev-run therefore comes first,
/// but is loaded into umockdev-run itself too. The fix library is (for its write log, see
/// `writeLog`, where it does nothing else), and to be sure it comes first in the child
/// whatever the caller's LD_PRELOAD, the child is started through
/// `/bin/bash -c '…; LD_PRELOAD="$0${LD_PRELOAD:+:$LD_PRELOAD}" exec "$@"' FIX.so 0 CHILD ARGS…`,
/// which puts the fix first in the child's LD_PRELOAD (the `0`: how many gated nodes the
/// shell holds open first, named after it; see `commandLine`).
///
/// umockdev-run outlives the command it runs until every device script has played to its
/// end (measured: a child that exits at once, with a script whose lead-in is 20 s, ends
/// umockdev-run after 20 s), and a script whose pseudo-terminal nobody reads any more blocks
/// it for good. So `run` has the wrapper write the command's exit status to a file, and
/// ends the run `afterChildExit` seconds after that status appears: a command that stops
/// early (an error at start-up) is reported at once, with its own status.
public struct UmockdevRunner: Sendable {
    /// The fix library's file name (see `UmockdevFixLibrary`).
    package static let preloadLibraryName = UmockdevFixLibrary.fileName
    /// Environment variable naming the fix library explicitly.
    package static let preloadLibraryEnvironment = UmockdevFixLibrary.environmentVariable

    public var umockdevRun: String
    public var preloadLibrary: String
    /// Seconds after which the run is killed (SIGTERM to its process group, SIGKILL 1 s later).
    public var timeout: Double
    /// Extra environment for the run (appended to the inherited one).
    public var environment: [String: String]

    /// Finds umockdev-run and the fix library; throws a clear error when either is missing.
    /// `searchPath`: where to look for umockdev-run (default: $PATH).
    public init(timeout: Double = 30, preloadLibrary: String? = nil,
                environment: [String: String] = [:], searchPath: String? = nil) throws {
        guard let run = UmockdevRunner.findUmockdevRun(searchPath: searchPath) else {
            throw UmockdevRunError.umockdevRunMissing(
                searchPath: searchPath ?? UmockdevRunner.env("PATH") ?? "")
        }
        self.umockdevRun = run
        if let preloadLibrary {
            guard access(preloadLibrary, R_OK) == 0 else {
                throw UmockdevRunError.preloadLibraryMissing(searched: [preloadLibrary])
            }
            self.preloadLibrary = preloadLibrary
        } else {
            self.preloadLibrary = try UmockdevFixLibrary.path()
        }
        self.timeout = timeout
        self.environment = environment
    }

    /// The absolute path of umockdev-run, if it is in PATH.
    public static func findUmockdevRun(searchPath: String? = nil) -> String? {
        let path = searchPath ?? env("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/umockdev-run"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    static func env(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The testbed's mock nodes exist only inside it; a seat daemon outside it (seatd on
    /// /run/seatd.sock, which umockdev does not redirect, or logind) cannot open them. One
    /// that is in another testbed opens that testbed's node, or dies under its reader: seen
    /// here as the reader's open failing with EPIPE (libseat's word for seatd hanging up),
    /// libinput refusing a node whose descriptor came from another testbed, or "no such
    /// device", when one test's seatd served another test's reader. So `commandLine` runs
    /// the testbed with seatd's socket pointing inside the testbed, where nothing listens,
    /// and with no logind session (`XDG_SESSION_ID` empty): `--seat-access auto` then opens
    /// the nodes directly, and libseat finds no daemon. A caller that starts its own seatd in
    /// the testbed sets `SEATD_SOCK` in `environment`, and this is left out.
    package func seatIsolation(directory: String) -> [String] {
        environment["SEATD_SOCK"] != nil ? [] : ["SEATD_SOCK=\(directory)/\(Self.noSeatdSocketName)", "XDG_SESSION_ID="]
    }

    /// umockdev-run itself runs with the fix library loaded, keeping its write log (the
    /// library's item 11) in `directory`: for every frame it writes, the frame's recorded time
    /// and when it was sent, the time it was due on the recording's schedule, which the
    /// library keeps umockdev-run's writes on (item 12). The reader's side of the library
    /// stamps a frame with that time, not the time it was read, as a kernel stamps an event
    /// when the device sends it, however late its reader reads: a compositor busy for 0.2 s on
    /// a loaded machine read a touch's lift late, and the lift was stamped so, which made a
    /// 1.5 s long press last 1.7 s. Any LD_PRELOAD already set comes after the library.
    package func writeLog(directory: String) -> [String] {
        let inherited = environment["LD_PRELOAD"] ?? Self.env("LD_PRELOAD") ?? ""
        return ["LD_PRELOAD=\(preloadLibrary)\(inherited.isEmpty ? "" : ":" + inherited)",
                "\(Self.writeLogEnvironment)=\(directory)"]
    }

    /// How the files of the write log begin (one a pseudo-terminal: write-log-pts<N>).
    package static let writeLogFilePrefix = "write-log-pts"

    /// The variable that names the directory of umockdev-run's write log.
    package static let writeLogEnvironment = "GESTUREKIT_UMOCKDEV_WRITE_LOG"

    /// The name, in the testbed's directory, `SEATD_SOCK` points to: nothing is ever there.
    package static let noSeatdSocketName = "no-seatd.sock"

    /// Seconds `run` waits for umockdev-run to end by itself after the command under test
    /// exited, before ending it.
    package static let afterChildExit = 1.0

    /// The umockdev-run command line for `devices` (files in `directory`) and `command`.
    /// With `exitStatusFile`, the command's exit status is written there when it exits (the
    /// wrapper shell waits for it instead of becoming it).
    ///
    /// The wrapper shell opens every gated device's node (`MockDeviceReplay.isGated`) before
    /// it runs `command`, and keeps it open (the command inherits the descriptors, and never
    /// reads them): umockdev-run waits for a gate by reading its side of the node's
    /// pseudo-terminal, and while no process in the testbed has the node open, that read
    /// fails at once and is tried again, a busy loop that took a whole core from the start of
    /// the run until the command under test opened the node (measured: umockdev-run at 99.6 %
    /// CPU for a gated script with `sleep 5` as the command). On a loaded machine that core
    /// was another test's mock device or reader.
    public func commandLine(devices: [MockDeviceReplay], directory: String,
                            command: [String], exitStatusFile: String? = nil) -> [String] {
        var args = ["/usr/bin/env"] + seatIsolation(directory: directory) + writeLog(directory: directory)
            + [umockdevRun]
        for (i, replay) in devices.enumerated() {
            let node = replay.device.devicePath
            args += ["-d", "\(directory)/device\(i).umockdev",
                     "-i", "\(node)=\(directory)/device\(i).ioctl",
                     "-s", "\(node)=\(directory)/device\(i).script"]
        }
        let held = devices.filter(\.isGated).map(\.device.devicePath)
        let hold = #"while [ "$n" -gt 0 ]; do exec {held}<"$1"; shift; n=$((n - 1)); done; "#
        if let exitStatusFile {
            args += ["--", "/bin/bash", "-c",
                     #"f="$1"; n="$2"; shift 2; "# + hold
                        + #"LD_PRELOAD="$0${LD_PRELOAD:+:$LD_PRELOAD}" "$@"; s=$?; echo "$s" > "$f.new" && mv "$f.new" "$f"; exit "$s""#,
                     preloadLibrary, exitStatusFile, String(held.count)]
        } else {
            args += ["--", "/bin/bash", "-c",
                     #"n="$1"; shift; "# + hold + #"LD_PRELOAD="$0${LD_PRELOAD:+:$LD_PRELOAD}" exec "$@""#,
                     preloadLibrary, String(held.count)]
        }
        args += held
        args += command
        return args
    }

    /// Writes the device files, runs `command` under umockdev-run, and collects its output.
    /// Never hangs: the run is killed after `timeout` seconds.
    public func run(devices: [MockDeviceReplay], command: [String]) throws -> UmockdevRunResult {
        var template = Array("/tmp/gesturekit-umockdev-XXXXXX".utf8CString)
        guard let dirPointer = mkdtemp(&template) else {
            throw UmockdevRunError.cannotWriteFiles(directory: "/tmp", errno: errno)
        }
        let directory = String(cString: dirPointer)
        defer { UmockdevRunner.removeDirectory(directory, files: devices.count) }
        try writeFiles(devices: devices, directory: directory)
        let statusFile = "\(directory)/\(UmockdevRunner.exitStatusFileName)"
        let args = commandLine(devices: devices, directory: directory, command: command, exitStatusFile: statusFile)
        return try ChildProcess.run(args, environment: environment, timeout: timeout,
                                    childExit: (statusFile, UmockdevRunner.afterChildExit))
    }

    /// Runs `command` under umockdev-run on device files already in `directory` (`writeFiles`),
    /// started by `launcher` (a program that runs the rest of the line, such as `runuser -u
    /// USER --` for a compositor that refuses to run as root). Whoever the command runs as
    /// must be able to write in `directory`: the command's exit status goes there. Never
    /// hangs: the run is killed after `timeout` seconds.
    public func run(devices: [MockDeviceReplay], filesIn directory: String, command: [String],
                    launcher: [String] = []) throws -> UmockdevRunResult {
        let statusFile = "\(directory)/\(UmockdevRunner.exitStatusFileName)"
        let args = launcher + commandLine(devices: devices, directory: directory, command: command, exitStatusFile: statusFile)
        return try ChildProcess.run(args, environment: environment, timeout: timeout,
                                    childExit: (statusFile, UmockdevRunner.afterChildExit))
    }

    /// Writes each device's files (`deviceN.umockdev`, `.ioctl`, `.script`) into `directory`,
    /// as `commandLine` names them.
    public func writeFiles(devices: [MockDeviceReplay], directory: String) throws {
        try writeDescriptions(of: devices.map(\.device), directory: directory)
        for (i, replay) in devices.enumerated() {
            try UmockdevRunner.writeFile(replay.script, to: "\(directory)/device\(i).script")
        }
    }

    /// Writes each device's description files (`deviceN.umockdev`, `.ioctl`) into `directory`,
    /// as `commandLine` names them; the scripts are the caller's (a `MockDeviceFeed`'s FIFO at
    /// `scriptPath(device:directory:)`).
    public func writeDescriptions(of devices: [MockDevice], directory: String) throws {
        for (i, device) in devices.enumerated() {
            try UmockdevRunner.writeFile(Array(device.umockdevText().utf8), to: "\(directory)/device\(i).umockdev")
            try UmockdevRunner.writeFile(Array(device.ioctlText().utf8), to: "\(directory)/device\(i).ioctl")
        }
    }

    /// Where `commandLine` expects the script of the `index`-th device.
    public static func scriptPath(device index: Int, directory: String) -> String { "\(directory)/device\(index).script" }

    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UmockdevRunError.cannotWriteFiles(directory: path, errno: errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw UmockdevRunError.cannotWriteFiles(directory: path, errno: errno)
            }
            offset += n
        }
    }

    /// The file in a run's directory that receives the command's exit status.
    static let exitStatusFileName = "command-exit-status"

    static func removeDirectory(_ directory: String, files: Int) {
        unlink("\(directory)/\(exitStatusFileName)")
        for i in 0..<files {
            for ext in ["umockdev", "ioctl", "script"] { unlink("\(directory)/device\(i).\(ext)") }
        }
        if let dir = opendir(directory) {
            var logs: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(writeLogFilePrefix) { logs.append(name) }
            }
            closedir(dir)
            for name in logs { unlink("\(directory)/\(name)") }
        }
        rmdir(directory)
    }
}

/// posix_spawn with pipes, its own process group, and a timeout.
enum ChildProcess {
    /// `childExit`: a file that receives the exit status of the command under test, and the
    /// seconds to wait for the whole run to end by itself once it has; then it is ended, and
    /// that status is the run's.
    static func run(_ args: [String], environment: [String: String],
                    timeout: Double, childExit: (file: String, grace: Double)? = nil) throws -> UmockdevRunResult {
        let start = monotonicSeconds()
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw UmockdevRunError.launchFailed(program: args[0], errno: errno)
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attr, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attr, &emptyMask)

        var env: [String: String] = [:]
        var e = environ
        while let entry = e.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") {
                env[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
            e += 1
        }
        for (k, v) in environment { env[k] = v }

        let argv = args.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, args[0], &actions, &attr, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw UmockdevRunError.launchFailed(program: args[0], errno: rc)
        }

        var out: [UInt8] = []
        var err: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        var timedOut = false
        var ending = false
        var childStatus: Int32? = nil
        var killDeadline: Double? = nil
        var deadline = start + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let now = monotonicSeconds()
            if let childExit, childStatus == nil, let status = readStatus(childExit.file) {
                childStatus = status
                deadline = min(deadline, now + childExit.grace)
            }
            if !ending && now >= deadline {
                ending = true
                timedOut = childStatus == nil
                kill(-pid, SIGTERM)
                killDeadline = now + 1
            } else if let k = killDeadline, now >= k {
                kill(-pid, SIGKILL)
                killDeadline = nil
            }
            let wait = ending ? (killDeadline.map { $0 - now } ?? 0.2) : min(deadline - now, childExit == nil ? 1 : 0.1)
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let r = poll(&fds, nfds_t(fds.count), Int32(max(1, min(wait, 1) * 1000)))
            if r < 0 && errno != EINTR { break }
            for p in fds where p.revents != 0 {
                let n = read(p.fd, &buffer, buffer.count)
                if n > 0 {
                    if p.fd == outPipe[0] { out += buffer[..<n] } else { err += buffer[..<n] }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(p.fd)
                    open.removeAll { $0 == p.fd }
                }
            }
            if ending && killDeadline == nil && r == 0 { break }
        }
        for fd in open { close(fd) }

        var status: Int32 = 0
        if ending { kill(-pid, SIGKILL) }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Whatever is left of the process group (a child umockdev-run left behind).
        kill(-pid, SIGKILL)

        if childStatus == nil, let childExit { childStatus = readStatus(childExit.file) }
        if let childStatus {
            // The shell's status: 128 + N for a command ended by signal N (which umockdev-run
            // would raise itself).
            status = childStatus > 128 && childStatus < 128 + 65 ? childStatus - 128 : (childStatus & 0xff) << 8
        }
        let exited = status & 0x7f == 0
        let text = String(decoding: out, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return UmockdevRunResult(
            stdoutLines: lines,
            stderr: String(decoding: err, as: UTF8.self),
            exitStatus: exited ? (status >> 8) & 0xff : nil,
            signal: exited ? nil : status & 0x7f,
            timedOut: timedOut,
            elapsed: monotonicSeconds() - start,
            command: args)
    }

    /// The exit status written to `path` ("N\n"), once it is there.
    static func readStatus(_ path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let n = read(fd, &bytes, bytes.count)
        guard n > 1, bytes[n - 1] == UInt8(ascii: "\n") else { return nil }
        return Int32(String(decoding: bytes[..<(n - 1)], as: UTF8.self))
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
