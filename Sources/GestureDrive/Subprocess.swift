#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process the drive session started: spawned in a process group of its own (so that the
/// group, and whatever it started without leaving it, ends together), its standard output and
/// error into a file, its input from /dev/null.
struct Subprocess {
    let pid: pid_t
    let arguments: [String]
    private(set) var status: Int32?

    /// Starts `arguments` (the first an absolute path) with `environment` added to this
    /// process's, writing its output to `outputPath`.
    static func spawn(_ arguments: [String], environment: [String: String] = [:], outputPath: String) throws -> Subprocess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // A group of its own, and no signal blocked (a test runner's children may have SIGTERM
        // blocked, and a compositor that cannot be ended is a hang).
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attr, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attr, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)

        var env = currentEnvironment()
        for (k, v) in environment { env[k] = v }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, &attr, argv, envp)
        guard rc == 0 else { throw DriveError.cannotStart(program: arguments[0], why: String(cString: strerror(rc))) }
        return Subprocess(pid: pid, arguments: arguments)
    }

    /// Whether it has exited (reaping it when it has).
    mutating func hasExited() -> Bool {
        if status != nil { return true }
        var s: Int32 = 0
        let r = waitpid(pid, &s, WNOHANG)
        if r == pid { status = s; return true }
        if r < 0 && errno == ECHILD { status = -1; return true }
        return false
    }

    /// Waits at most `seconds` for it to exit; whether it did.
    mutating func wait(seconds: Double) -> Bool {
        let deadline = monotonic() + seconds
        while !hasExited() {
            if monotonic() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Ends its group: SIGTERM, then SIGKILL after `grace` seconds; reaps it.
    mutating func end(grace: Double = 2) {
        if !hasExited() { kill(-pid, SIGTERM) }
        if !wait(seconds: grace) {
            kill(-pid, SIGKILL)
            _ = wait(seconds: 5)
        }
        // Whatever is left of the group (a child that outlived its parent).
        kill(-pid, SIGKILL)
    }

    /// The exit status of a process that exited, or 128 + the signal that ended it.
    var exitCode: Int32? {
        guard let status, status >= 0 else { return nil }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs `arguments` to its end (at most `timeout` seconds: then its group is ended), its
    /// output into `outputPath`; its exit code, or nil when it had to be ended.
    static func run(_ arguments: [String], environment: [String: String] = [:], outputPath: String,
                    timeout: Double) throws -> Int32? {
        var p = try spawn(arguments, environment: environment, outputPath: outputPath)
        if p.wait(seconds: timeout) { return p.exitCode }
        p.end(grace: 0.5)
        return nil
    }
}

/// This process's environment.
func currentEnvironment() -> [String: String] {
    var env: [String: String] = [:]
    var e = environ
    while let entry = e.pointee {
        let s = String(cString: entry)
        if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
        e += 1
    }
    return env
}

/// Seconds on CLOCK_MONOTONIC.
func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The process group of a living (not zombie) process, from /proc.
func processGroup(of pid: pid_t) -> pid_t? {
    guard let stat = readTextFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 2, fields[0] != "Z" else { return nil }
    return pid_t(fields[2])
}

/// The processes still alive (not zombies) in process group `group`, from /proc.
func livingProcesses(inGroup group: pid_t) -> [pid_t] {
    guard let dir = opendir("/proc") else { return [] }
    defer { closedir(dir) }
    var found: [pid_t] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let pid = pid_t(name), let stat = readTextFile("/proc/\(name)/stat") else { continue }
        // "pid (comm) S ppid pgrp …": the fields after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group else { continue }
        found.append(pid)
    }
    return found
}

/// A whole (small) file as text, or nil.
func readTextFile(_ path: String, limit: Int = 64 << 20) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bytes.count < limit {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Reads a whole file's bytes, or nil.
func readBytes(_ path: String, limit: Int = 256 << 20) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while bytes.count < limit {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += buffer[..<n]
    }
    return bytes
}

/// Writes `text` to `path`, replacing it.
func writeTextFile(_ path: String, _ text: String, mode: mode_t = 0o644) throws {
    try writeFile(path, Array(text.utf8), mode: mode)
}

/// Writes `bytes` to `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw DriveError.cannotWrite(path: path, why: String(cString: strerror(errno))) }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw DriveError.cannotWrite(path: path, why: String(cString: strerror(errno))) }
        offset += n
    }
}

/// The absolute path of `program` (a name looked up in PATH, or a path), if it can be run.
func findProgram(_ program: String) -> String? {
    if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
}

/// The last `count` characters of `text`, whole lines, for an error message; sway's lines
/// about IPC clients (drive's own polling) left out.
func tail(_ text: String, _ count: Int = 1200) -> String {
    let text = text.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.contains("[sway/ipc-server.c:") }.joined(separator: "\n")
    guard text.count > count else { return text }
    let cut = text.suffix(count)
    return "…" + (cut.firstIndex(of: "\n").map { String(cut[cut.index(after: $0)...]) } ?? String(cut))
}

/// `text` quoted for a POSIX shell.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
}
