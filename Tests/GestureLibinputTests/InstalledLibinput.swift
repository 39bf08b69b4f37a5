import Foundation
import GestureTestSupport

/// The libinput the package was built against and runs with (`pkg-config --modversion
/// libinput`; libinput itself has no version call). Tests whose figures differ between libinput
/// releases pick their expectation with it, and say which release gave which figure.
enum InstalledLibinput {
    struct Version: Comparable, CustomStringConvertible {
        let major: Int, minor: Int
        static func < (a: Version, b: Version) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
        var description: String { "\(major).\(minor)" }
    }

    /// nil when pkg-config cannot say (the tests that need it then record why).
    static let version: Version? = {
        guard let run = try? runProcess("/usr/bin/env", ["pkg-config", "--modversion", "libinput"], errors: .discard) else { return nil }
        let parts = run.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").compactMap { Int($0) }
        guard run.status == 0, parts.count >= 2 else { return nil }
        return Version(major: parts[0], minor: parts[1])
    }()

    /// libinput 1.28 (Debian 13) changed two of the figures the agreement tests compare; see
    /// PointerAgreementTests for what each one is.
    static var isAtLeast1_28: Bool { (version ?? Version(major: 0, minor: 0)) >= Version(major: 1, minor: 28) }
}
