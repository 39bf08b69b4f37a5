import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the package's programs were built: the directory of the running test bundle
/// (`.build/<triple>/debug`, or the scratch path's when the tests were built with
/// `--scratch-path`), or `.build/debug` when the tests do not run from a bundle.
package let builtProductsDirectory: URL = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    if runner.pathExtension == "xctest" { return runner.deletingLastPathComponent() }
    return packageRoot.appendingPathComponent(".build/debug").resolvingSymlinksInPath()
}()

/// The path of the built program `name` (`gesturekit`, `photowall`, `quickstart`).
package func builtProduct(_ name: String) -> String {
    builtProductsDirectory.appendingPathComponent(name).path
}

/// Where a child's standard output or standard error goes.
package enum ProcessStream: Sendable {
    /// Kept, and handed back in the result.
    case capture
    /// Thrown away (/dev/null).
    case discard
    /// The test process's own: what the child writes shows in the test log.
    case inherit
    /// Standard error only: into standard output's capture, interleaved as written (`2>&1`).
    case intoOutput
}

/// How a child process ended, and what it wrote.
package struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status; the signal's number when a signal ended it.
    package let status: Int32
    /// Whether a signal ended it (SIGKILL after `timedOut`).
    package let signalled: Bool
    /// Whether it was still running at the timeout and was killed.
    package let timedOut: Bool
    /// Standard output (with standard error, for `.intoOutput`), as written.
    package let outputData: Data
    /// Standard error, as written (empty unless captured on its own).
    package let errorData: Data

    package var output: String { String(decoding: outputData, as: UTF8.self) }
    package var errors: String { String(decoding: errorData, as: UTF8.self) }

    /// "exit status 2", "killed by signal 9", or that it was killed at its timeout.
    package var description: String {
        if timedOut { return "killed after its timeout: it was still running" }
        return signalled ? "killed by signal \(status)" : "exit status \(status)"
    }
}

/// Runs `executable` (a path) with `arguments` to its end and returns how it ended and what it
/// wrote. What it captures goes to unlinked temporary files, not pipes: no buffer fills, so
/// nothing deadlocks however much the child writes to either stream. (Foundation's Process
/// sees the child's end only once every process it started has ended too: a script's
/// background job holds the run, as it did with pipes.)
///
/// - `environment`: variables added to (or replacing those of) this process's environment,
///   which the child inherits; `unsetting`: variables taken out of it.
/// - `input`: the child's standard input; nil, this process's own.
/// - `timeout`: seconds after which a child still running is killed, with every process it
///   started (SIGKILL: a test runner's children may have SIGTERM blocked); the result says so
///   (`timedOut`).
/// - `currentDirectory`: where it runs; nil, here.
///
/// Throws when the child cannot be started (no such program).
package func runProcess(_ executable: String, _ arguments: [String] = [],
                       environment: [String: String] = [:], unsetting: [String] = [],
                       input: Data? = nil, output: ProcessStream = .capture, errors: ProcessStream = .capture,
                       timeout: Double? = nil, currentDirectory: String? = nil) throws -> ProcessResult {
    precondition(output != .intoOutput, "runProcess: .intoOutput is for standard error")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty || !unsetting.isEmpty {
        var merged = ProcessInfo.processInfo.environment
        for name in unsetting { merged.removeValue(forKey: name) }
        merged.merge(environment) { $1 }
        process.environment = merged
    }
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }

    var inputFile: ScratchFile?
    if let input {
        let file = try ScratchFile()
        try file.handle.write(contentsOf: input)
        file.rewind()
        process.standardInput = file.handle
        inputFile = file
    }
    let outputFile = output == .capture ? try ScratchFile() : nil
    let errorFile = errors == .capture ? try ScratchFile() : nil
    switch output {
    case .capture: process.standardOutput = outputFile!.handle
    case .discard: process.standardOutput = FileHandle.nullDevice
    case .inherit, .intoOutput: break
    }
    switch errors {
    case .capture: process.standardError = errorFile!.handle
    case .discard: process.standardError = FileHandle.nullDevice
    case .inherit: break
    case .intoOutput: process.standardError = process.standardOutput
    }

    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    var timedOut = false
    if let timeout {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            for pid in processTree(process.processIdentifier) { kill(pid, SIGKILL) }
            exited.wait()
        }
    } else {
        exited.wait()
    }
    process.waitUntilExit()
    _ = inputFile
    return ProcessResult(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                         timedOut: timedOut, outputData: outputFile?.contents() ?? Data(),
                         errorData: errorFile?.contents() ?? Data())
}

/// `root` and every process below it (children, their children…), from /proc: taken before any
/// is killed, while each is still its parent's.
private func processTree(_ root: pid_t) -> [pid_t] {
    var parents: [(pid: pid_t, parent: pid_t)] = []
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = pid_t(name),
              let data = FileHandle(forReadingAtPath: "/proc/\(name)/stat").flatMap({ try? $0.readToEnd() }) else { continue }
        // "pid (command) state ppid …": the command may hold spaces and parentheses.
        let stat = String(decoding: data, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = pid_t(fields[1]) { parents.append((pid, parent)) }
    }
    var tree = [root]
    var next = 0
    while next < tree.count {
        let pid = tree[next]
        tree += parents.filter { $0.parent == pid }.map(\.pid)
        next += 1
    }
    return tree
}

/// A temporary file opened close-on-exec (so no other test's child inherits it) and unlinked
/// at once (nothing is left behind); closed when released.
private final class ScratchFile {
    let handle: FileHandle

    init() throws {
        let path = NSTemporaryDirectory() + "gesturekit-run-\(UUID().uuidString)"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        unlink(path)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    func rewind() { lseek(handle.fileDescriptor, 0, SEEK_SET) }

    /// Everything written to it.
    func contents() -> Data {
        rewind()
        return (try? handle.readToEnd()) ?? Data()
    }
}

/// Whether this process may make a mount namespace of its own and mount a tmpfs in it: root,
/// unshare (util-linux), a root filesystem that is a mount (not so in a chroot, such as a fresh
/// Debian root's or `make test-debian13`'s), and tmpfs. Asked once, by trying.
package let privateMountNamespace: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let run = try? runProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", "mount -t tmpfs tmpfs /run"],
                              output: .discard, errors: .discard)
    return run?.status == 0
}()
