import Foundation
import Testing

@Suite("A package that depends on GestureKit")
struct DownstreamTests {
    /// Runs a check script of `scripts/` and returns its exit status and what it said. Plain
    /// `swift`: a wrapper that serializes builds (SWIFT=… on make's command line is exported
    /// here) would wait for the lock this very test run holds.
    static func check(_ script: String) throws -> (status: Int32, log: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [packageRoot.appendingPathComponent("scripts/\(script)").path]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT"] = "swift"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
