import Foundation

/// The unprivileged user a compositor runs as when the tests run as root (sway refuses root):
/// `gesturekit-test`, made once with useradd where it is missing.
package enum CompositorUser {
    package static let name = "gesturekit-test"

    /// Why a compositor cannot run on this machine, or nil when it can. Only what the machine
    /// truly lacks: an unprivileged user when running as root. Missing packages are not a
    /// reason: `make test` installs them (scripts/install-deps.sh).
    package static let unavailableReason: String? = {
        guard getuid() == 0 else { return nil }
        func run(_ arguments: [String]) -> Int32 {
            (try? runProcess(arguments[0], Array(arguments.dropFirst()), output: .discard, errors: .discard))?.status ?? -1
        }
        // Test processes started together (make test's phase 1 runs three) may all find the
        // user missing: useradd then fails in all but one (it locks /etc/passwd, or the name
        // is just taken), so a failed useradd is followed by another look, a few times.
        var said = ""
        for attempt in 0..<10 {
            if run(["/usr/bin/id", name]) == 0 { return nil }
            let made = try? runProcess("/usr/sbin/useradd", ["--system", "--create-home", "--shell", "/usr/sbin/nologin", name],
                                       output: .discard, errors: .capture)
            if made?.status == 0 { return nil }
            said = made.map { "exit \($0.status): \($0.errors.trimmingCharacters(in: .whitespacesAndNewlines))" } ?? "did not run"
            usleep(useconds_t(200_000 * (attempt + 1)))
        }
        let reason = "sway refuses to run as root and no unprivileged user '\(name)' could be created (useradd \(said)): the compositor tests cannot run here"
        FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
        return reason
    }()
}
