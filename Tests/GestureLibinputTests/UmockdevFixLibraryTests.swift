import GestureMockDevice
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The preload library is built from the source GestureMockDevice carries, on first use: a
/// fresh clone needs no build step of its own for `--backend libinput`.
@Suite struct UmockdevFixLibraryTests {
    func temporaryDirectory() -> String {
        var template = Array("/tmp/gesturekit-fix-test-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    @Test func buildsTheLibraryFromTheEmbeddedSource() throws {
        let directory = temporaryDirectory() + "/nested/cache"
        try UmockdevFixLibrary.build(into: directory)
        let library = "\(directory)/\(UmockdevFixLibrary.fileName)"
        let fd = open(library, O_RDONLY)
        #expect(fd >= 0, "the built library should be at \(library)")
        var magic = [UInt8](repeating: 0, count: 4)
        _ = read(fd, &magic, 4)
        close(fd)
        #expect(magic == [0x7F, 0x45, 0x4C, 0x46], "the library should be an ELF shared object")
        #expect(UmockdevFixLibrary.source.count > 10_000, "the embedded C source should be the whole file")
    }

    @Test func saysWhatToInstallWithoutACompiler() throws {
        #expect {
            try UmockdevFixLibrary.build(into: temporaryDirectory(), searchPath: "/nonexistent")
        } throws: { error in
            "\(error)".contains("no C compiler")
        }
    }

    @Test func findsOrBuildsItWithNothingBuiltByHand() throws {
        let path = try UmockdevFixLibrary.path()
        #expect(access(path, R_OK) == 0, "the fix library should be found or built, got \(path)")
    }
}
