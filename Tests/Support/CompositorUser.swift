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
        if run(["/usr/bin/id", name]) == 0 { return nil }
        if run(["/usr/sbin/useradd", "--system", "--create-home", "--shell", "/usr/sbin/nologin", name]) == 0 { return nil }
        let reason = "sway refuses to run as root and no unprivileged user '\(name)' could be created (useradd failed): the compositor tests cannot run here"
        FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
        return reason
    }()
}
