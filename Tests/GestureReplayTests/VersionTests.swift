import GestureKit
import Testing

@Suite struct VersionTests {
    @Test func toolPrintsTheLibraryVersion() throws {
        let (status, out, _) = try runTool(["--version"])
        #expect(status == 0)
        #expect(out == GestureKitVersion.string + "\n", "gesturekit --version should print the library's version")
        #expect(GestureKitVersion.string.split(separator: ".").count == 3, "a semantic version: major.minor.patch")
    }
}
