import Foundation
import GestureMockDevice
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The preload library is built from the source GestureMockDevice carries, on first use: a
/// fresh clone needs no build step of its own for `--backend libinput`.
@Suite struct UmockdevFixLibraryTests {
    final class LockedFailures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ failure: String) { lock.withLock { items.append(failure) } }
        var all: [String] { lock.withLock { items } }
    }

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

    /// A fresh machine's first tests all build it at once, from threads of one process and
    /// from several processes: once a builder wrote its source and its library under the
    /// same names as another (the process id alone), and a reader preloaded a library still
    /// being written ("file too short").
    @Test("eight builds at once into one directory (eight threads of one process): each succeeds, and the library is whole, with no builder's file left behind")
    func concurrentBuildsLeaveAWholeLibrary() throws {
        let directory = temporaryDirectory()
        // Threads of their own, all started before any builds: the cooperative pool would run
        // no more than a core's worth of these blocking builds at once.
        let collected = LockedFailures()
        let start = DispatchSemaphore(value: 0), done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread {
                start.wait()
                do { try UmockdevFixLibrary.build(into: directory) } catch { collected.append("\(error)") }
                done.leave()
            }.start()
        }
        for _ in 0..<8 { start.signal() }
        done.wait()
        let failures = collected.all
        #expect(failures.isEmpty, "every build succeeds: \(failures)")
        // Whole: an ELF object whose section headers, which the linker writes last, end
        // within the file (not loaded here: its constructors are for umockdev's testbed).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(UmockdevFixLibrary.fileName)")))
        func integer(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        #expect(bytes.count > 64 && bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) && bytes[4] == 2,
                "the library is a 64-bit ELF object: \(bytes.count) bytes")
        if bytes.count > 64 {
            let end = integer(0x28, 8) + integer(0x3C, 2) * integer(0x3A, 2)
            #expect(end <= bytes.count && end > 64, "its section headers end within the file (at \(end) of \(bytes.count) bytes)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(left == [UmockdevFixLibrary.fileName], "only the library is left: \(left)")
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
