import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// GestureKit's LD_PRELOAD library that fixes umockdev 0.17.16 for libinput
/// (`UmockdevFix/umockdev_fix.c`, embedded in this module), found or built on first use, so
/// that `gesturekit replay --backend libinput` works from a fresh clone with nothing built by
/// hand.
///
/// Where it is looked for, in order: `$GESTUREKIT_UMOCKDEV_FIX`; next to the running
/// executable (an installed copy, `make install`); `<libdir>/gesturekit/` beside an installed
/// `bin/`; the user's cache (`$XDG_CACHE_HOME` or `~/.cache`, then `/tmp`), under
/// `gesturekit/umockdev-fix-<hash of the source>/`. When none holds it, the embedded source is
/// compiled there with the system's C compiler (`cc`, `gcc`, or the Swift toolchain's `clang`), in
/// about a second; a changed source gets a new hash, so an old build is never used.
public enum UmockdevFixLibrary {
    /// The library's file name.
    public static let fileName = "libGestureKitUmockdevFix.so"
    /// Environment variable naming the library explicitly.
    public static let environmentVariable = "GESTUREKIT_UMOCKDEV_FIX"

    /// The embedded C source.
    package static var source: [UInt8] { PackageResources.umockdev_fix_c }

    /// FNV-1a of the source, in hex: the build directory's name.
    package static var sourceHash: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source {
            h ^= UInt64(byte)
            h &*= 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Places an existing library may be (see the type's description).
    package static func installedCandidates() -> [String] {
        var candidates: [String] = []
        if let explicit = getenv(environmentVariable).map({ String(cString: $0) }), !explicit.isEmpty {
            candidates.append(explicit)
        }
        if let exe = UmockdevRunner.executableDirectory() {
            candidates.append("\(exe)/\(fileName)")
            if exe.hasSuffix("/bin") {
                let prefix = String(exe.dropLast(4))
                candidates.append("\(prefix)/lib/gesturekit/\(fileName)")
            }
        }
        return candidates
    }

    /// The cache directories the library is built into, most preferred first.
    static func cacheDirectories() -> [String] {
        var roots: [String] = []
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            roots.append(xdg)
        }
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            roots.append("\(home)/.cache")
        }
        roots.append("/tmp/gesturekit-\(getuid())")
        return roots.map { "\($0)/gesturekit/umockdev-fix-\(sourceHash)" }
    }

    /// The library's path: an existing copy, or one built now from the embedded source.
    public static func path() throws -> String {
        let installed = installedCandidates()
        if let found = installed.first(where: { access($0, R_OK) == 0 }) { return found }
        var attempts: [String] = []
        for directory in cacheDirectories() {
            let library = "\(directory)/\(fileName)"
            if access(library, R_OK) == 0 { return library }
            do {
                try build(into: directory)
                return library
            } catch let error as UmockdevRunError {
                attempts.append("\(directory): \(error)")
                if case .compilerMissing = error { break }
            }
        }
        throw UmockdevRunError.preloadLibraryMissing(searched: installed + attempts)
    }

    /// Compiles the embedded source into `directory/libGestureKitUmockdevFix.so`. Any number
    /// of builders may run at once, in processes or threads of one process (the tests of a
    /// fresh machine all want it first): each writes the source and the library under names of
    /// its own, and renames its library into place whole, so that no user ever sees, and no
    /// builder ever writes into, another's half-written file. `searchPath`: where to look for
    /// the compiler (default: $PATH).
    public static func build(into directory: String, searchPath: String? = nil) throws {
        try makeDirectories(directory)
        guard let compiler = findCompiler(searchPath: searchPath) else {
            throw UmockdevRunError.compilerMissing
        }
        let unique = "\(getpid()).\(UInt64.random(in: 0 ... .max))"
        let sourcePath = "\(directory)/umockdev_fix.\(unique).c"
        let temporary = "\(directory)/\(fileName).\(unique).tmp"
        defer { unlink(sourcePath) }
        try UmockdevRunner.writeFile(source, to: sourcePath)
        let result = try ChildProcess.run(
            [compiler, "-shared", "-fPIC", "-O2", "-D_GNU_SOURCE", "-o", temporary, sourcePath, "-ldl"],
            environment: [:], timeout: 60)
        guard result.exitStatus == 0, access(temporary, R_OK) == 0 else {
            unlink(temporary)
            throw UmockdevRunError.buildFailed(compiler: compiler, output: result.stderr)
        }
        guard rename(temporary, "\(directory)/\(fileName)") == 0 else {
            let code = errno
            unlink(temporary)
            throw UmockdevRunError.cannotWriteFiles(directory: directory, errno: code)
        }
    }

    /// `cc`, `gcc` or `clang` from PATH (a Swift toolchain brings its `clang`).
    static func findCompiler(searchPath: String? = nil) -> String? {
        let path = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for name in ["cc", "gcc", "clang"] {
            for dir in path.split(separator: ":") where access("\(dir)/\(name)", X_OK) == 0 {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    private static func makeDirectories(_ path: String) throws {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw UmockdevRunError.cannotWriteFiles(directory: current, errno: errno)
            }
        }
    }
}
