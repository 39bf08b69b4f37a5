import Foundation
import Testing

@Suite("A package that depends on GestureKit")
struct DownstreamTests {
    @Test("Examples/Downstream builds by path on the GestureKit and GestureLayout products alone, with no C library, and runs")
    func downstreamBuildsAndRuns() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [packageRoot.appendingPathComponent("scripts/check-downstream.sh").path]
        // Plain `swift`: a wrapper that serializes builds (SWIFT=… on make's command line is
        // exported here) would wait for the lock this very test run holds.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT"] = "swift"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = String(decoding: data, as: UTF8.self)
        // The script says out loud when it could not hide the system's C headers.
        for line in log.split(separator: "\n") where line.hasPrefix("check-downstream:") { print(line) }
        #expect(process.terminationStatus == 0,
                "the downstream package should build with only Swift, run, and print Examples/Downstream/expected-output.txt; the check said:\n\(log.suffix(3000))")
    }

    @Test("Examples/DownstreamToolkits builds by path on GestureKit with GestureGTK and with GestureSDL; each program links its own toolkit and no other C library of GestureKit's; the SDL one runs and recognizes its tap")
    func toolkitDownstreamsBuild() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [packageRoot.appendingPathComponent("scripts/check-downstream-toolkits.sh").path]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT"] = "swift"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0,
                "the toolkit downstream packages should build, link only their toolkit, and the SDL one print Examples/DownstreamToolkits/expected-sdl-output.txt; the check said:\n\(log.suffix(3000))")
    }
}
