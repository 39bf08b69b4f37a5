// Shared by every fuzz target (compiled into each one; not a SwiftPM target).
#if canImport(Glibc)
import Glibc
#endif
import GestureKit
import GestureReplay
import GestureTraces

/// The trace parsers read files: each input is written to a per-process file in /dev/shm
/// (a RAM disk), which is overwritten by the next input.
let fuzzInputPath: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(dir)/gesturekit-fuzz-\(getpid())"
}()

func writeInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    let fd = open(fuzzInputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(fuzzInputPath)")
    var done = 0
    while done < size, let data {
        let n = write(fd, data + done, size - done)
        precondition(n > 0, "cannot write \(fuzzInputPath)")
        done += n
    }
    close(fd)
    return fuzzInputPath
}

/// After `finish()`, every recognizer of the scene is back in `possible` with nothing
/// pending: a violation is a bug, so it crashes the target.
func checkSettled(_ live: LiveScene, _ what: String) {
    if let deadline = live.engine.nextDeadline {
        fatalError("\(what): a deadline (\(deadline)) is still pending after finish()")
    }
    for (id, r) in live.recognizers where r.state != .possible {
        fatalError("\(what): recognizer \(id) is \(r.state) after finish()")
    }
}

/// The whole `gesturekit replay` path (as `TraceReplay.run`): format detection, a full
/// validating pass, then decoding through the default scene on virtual time, every record
/// rendered as its JSON line. Malformed input must end in a `TraceError`; a trace that
/// reads must leave every recognizer settled.
func replayWhole(_ path: String, scene: Scene = .defaultScene()) {
    do {
        let reader = try TraceReader(path: path, screen: scene.screen)
        try reader.run { _ in }
        var bytes = 0
        let session = try ReplaySession(scene: scene) { bytes &+= $0.jsonLine.utf8.count }
        try reader.run { session.feed($0) }
        session.finish()
        checkSettled(session.live, "replay of \(reader.format)")
    } catch is TraceError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}
