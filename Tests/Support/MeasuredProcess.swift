import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How long a child took and the most memory it held: what a budget test bounds.
package struct MeasuredProcess: Sendable, CustomStringConvertible {
    /// The exit status, or the signal's number when a signal ended it.
    package let status: Int32
    package let signalled: Bool
    /// Wall-clock seconds from its start to its end.
    package let seconds: Double
    /// Its peak resident memory: the largest `VmHWM` of `/proc/PID/status` read while it ran
    /// (every 2 ms). Not `wait4`'s `ru_maxrss`: posix_spawn's child shares the test process's
    /// memory until it execs, and Linux keeps that memory's high-water mark in the child's
    /// `ru_maxrss` across the exec (the whole test process's 200 MB in a full run).
    package let peakBytes: Int
    /// What it wrote on standard error.
    package let errors: String

    package var description: String {
        "\(signalled ? "killed by signal" : "exit status") \(status) after \(String(format: "%.2f", seconds)) s, peak \(peakBytes >> 20) MiB"
    }
}

/// Runs `executable` with `arguments`, its standard output thrown away and its standard error
/// kept, and measures its wall time and peak memory (`wait4`'s resource usage of that child
/// alone). A child still running after `timeout` seconds is killed (SIGKILL), so a hang ends
/// as a failure the test names.
package func runMeasured(_ executable: String, _ arguments: [String], timeout: Double) throws -> MeasuredProcess {
    let errorsPath = FileManager.default.temporaryDirectory.appendingPathComponent("gesturekit-measured-\(UUID().uuidString)").path
    defer { unlink(errorsPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
        throw NSError(domain: "runMeasured", code: Int(spawned), userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(spawned)))"])
    }
    var status: Int32 = 0
    var usage = rusage()
    var peakBytes = 0
    // Polled without blocking, so a child past its timeout can be killed.
    while true {
        peakBytes = max(peakBytes, highWaterMark(of: pid) ?? 0)
        let r = wait4(pid, &status, WNOHANG, &usage)
        if r == pid { break }
        if r < 0 && errno != EINTR { break }
        if (ContinuousClock.now - start) > .seconds(timeout) {
            kill(pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
            break
        }
        usleep(2_000)
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let signalled = (status & 0x7f) != 0
    let errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
    return MeasuredProcess(status: signalled ? status & 0x7f : (status >> 8) & 0xff, signalled: signalled,
                           seconds: seconds, peakBytes: peakBytes, errors: errors)
}

/// `VmHWM` of `/proc/PID/status` in bytes: the most memory the process's own address space
/// has held (posix_spawn returns once the child has exec'd), nil once it has gone.
private func highWaterMark(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
    return kB * 1024
}
