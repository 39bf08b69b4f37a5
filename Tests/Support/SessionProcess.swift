import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test runs beside itself for a session (a GTK app on Xvfb, a client under a
/// compositor) and talks to while it runs: it waits for what the program says (`waitUntil`),
/// drives it, and ends it as a user would (`stop`: SIGTERM, which the program answers by
/// finishing its input). The rules of a real-time test, in one place:
///
/// - **Readiness by a signal.** Nothing here sleeps for a fixed time: a test polls what the
///   program wrote (`output`, `errors`) or a file it made, every 20 ms, with a limit that holds
///   on a loaded machine (tens of seconds), and goes on the moment it holds.
/// - **Signals reach it.** The program starts with no signal blocked, in a process group of
///   its own. (A child started by Foundation's `Process` from a test runner's thread inherits
///   that thread's mask, in which SIGTERM and SIGINT are blocked: it would never see them.)
/// - **Its output is in files**, never pipes: nothing it starts can hold the session open, and
///   no buffer fills.
/// - **Nothing outlives the test.** Whatever is left of its process group is killed when the
///   session is released.
package final class SessionProcess {
    package let pid: pid_t
    private let outPath: String, errPath: String
    private var status: Int32?

    /// Starts `program` with `arguments`, its environment this process's with `environment`
    /// added (and `unsetting` taken out). Throws when it cannot be started.
    package init(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                 unsetting: [String] = []) throws {
        let base = NSTemporaryDirectory() + "gesturekit-session-\(UUID().uuidString)"
        outPath = base + ".out"
        errPath = base + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)

        var merged = ProcessInfo.processInfo.environment
        for name in unsetting { merged.removeValue(forKey: name) }
        merged.merge(environment) { $1 }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw SessionProcessError(program: program, errno: rc) }
        self.pid = pid
    }

    /// What it has written to standard output so far.
    package var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    /// What it has written to standard error so far.
    package var errors: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// Whether it is still running (it is reaped once it has ended).
    package var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        guard r == pid else { return r == 0 }
        status = raw
        return false
    }

    /// Polls `condition` every 20 ms until it holds, `seconds` pass, or the program has ended:
    /// whether it held.
    package func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            if !isRunning { return condition() }
            usleep(20_000)
        }
        return condition()
    }

    /// Sends `signal` (SIGTERM: end as Ctrl-C or a session's end would).
    package func stop(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `seconds` for it to end: its exit status, or the negated signal that ended
    /// it; nil if it is still running.
    package func exitStatus(within seconds: Double = 10) -> Int32? {
        _ = waitUntil(seconds: seconds) { !isRunning }
        guard let status else { return nil }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return -(status & 0x7f)
    }

    deinit {
        if isRunning {
            kill(-pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
        kill(-pid, SIGKILL)
        unlink(outPath)
        unlink(errPath)
    }
}

package struct SessionProcessError: Error, CustomStringConvertible {
    let program: String
    let errno: Int32
    package var description: String { "cannot start \(program): \(String(cString: strerror(errno)))" }
}
