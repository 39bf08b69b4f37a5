import Foundation
import Testing
import GestureTestSupport

@Suite("A package that depends on GestureKit")
struct DownstreamTests {
    /// Runs a check script of `scripts/` and returns its exit status and what it said. Plain
    /// `swift`: a wrapper that serializes builds (SWIFT=… on make's command line is exported
    /// here) would wait for the lock this very test run holds.
    static func check(_ script: String) throws -> (status: Int32, log: String) {
        let r = try runProcess("/bin/sh", [packageRoot.appendingPathComponent("scripts/\(script)").path],
                               environment: ["SWIFT": "swift"], errors: .intoOutput)
        return (r.status, r.output)
    }

    @Test("Examples/Downstream builds by path on the GestureKit and GestureLayout products alone, with no C library, and runs")
    func downstreamBuildsAndRuns() throws {
        let (status, log) = try Self.check("check-downstream.sh")
        // The script says out loud when it could not hide the system's C headers.
        for line in log.split(separator: "\n") where line.hasPrefix("check-downstream:") { print(line) }
        #expect(status == 0,
                "the downstream package should build with only Swift, run, and print Examples/Downstream/expected-output.txt; the check said:\n\(log.suffix(3000))")
    }

    @Test("Examples/DownstreamToolkits builds by path on GestureKit with GestureGTK and with GestureSDL; each program links its own toolkit and no other C library of GestureKit's; the SDL one runs and recognizes its tap")
    func toolkitDownstreamsBuild() throws {
        let (status, log) = try Self.check("check-downstream-toolkits.sh")
        #expect(status == 0,
                "the toolkit downstream packages should build, link only their toolkit, and the SDL one print Examples/DownstreamToolkits/expected-sdl-output.txt; the check said:\n\(log.suffix(3000))")
    }
}

/// GestureSDL3 (Packages/GestureSDL3) needs SDL3, which Debian 13 has and Debian 12 has not:
/// built and tested where pkg-config finds it, and said out loud where it does not.
@Suite("GestureSDL3, where SDL3 is installed")
struct SDL3PackageTests {
    static let missingReason: String? = {
        guard let exists = try? runProcess("/usr/bin/pkg-config", ["--exists", "sdl3"], output: .inherit, errors: .inherit) else {
            return "pkg-config is missing"
        }
        if exists.status == 0 { return nil }
        let reason = "SDL3 is not installed (Debian 12 has no libsdl3-dev; Debian 13 has 3.2): GestureSDL3 is built and tested by make test-debian13"
        FileHandle.standardError.write(Data("\n*** SKIPPED: \(reason) ***\n\n".utf8))
        return reason
    }()

    @Test("Packages/GestureSDL3 builds against SDL3 and its tests pass (nanosecond times, each input once, pens, SDL3's own queue)",
          .enabled(if: missingReason == nil, "\(missingReason ?? "")"))
    func sdl3PackageTests() throws {
        let scratch = NSTemporaryDirectory() + "gesturekit-sdl3-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let run = try runProcess("/usr/bin/env", ["swift", "test", "--package-path", packageRoot.appendingPathComponent("Packages/GestureSDL3").path,
                                                  "--scratch-path", scratch], errors: .intoOutput)
        let log = run.output
        #expect(run.status == 0, "GestureSDL3's tests pass: \(log.suffix(3000))")
        #expect(log.contains("passed"), "its tests ran: \(log.suffix(600))")
    }
}
