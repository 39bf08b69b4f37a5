import GestureKit
import PhotoWallApp
import PhotoWallRender

#if canImport(Glibc)
import Glibc
#endif

/// Writes lines to a file descriptor (standard output by default), flushing as asked.
final class LineWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0a)
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Prints every event, and with a directory writes a PNG of the wall after each one
/// (`01-selected.png`, `02-zoomed.png`, ...) and of the last frame (`last.png`).
final class FrameWriter {
    let directory: String?
    let canvas: Canvas
    private var count = 0
    private let out = LineWriter(fd: 1)

    init(directory: String?, canvas: Canvas) {
        self.directory = directory
        self.canvas = canvas
    }

    /// Prints the event; draws the wall and saves it when there is a directory.
    func record(_ event: PhotoWallEvent, wall: PhotoWall) throws {
        count += 1
        var line = event.description
        if let directory {
            let name = (count < 10 ? "0" : "") + "\(count)-\(event.kind.rawValue).png"
            canvas.draw(wall.render())
            try save("\(directory)/\(name)")
            line += "  → \(directory)/\(name)"
        }
        out.write(line)
        out.flush()
    }

    /// A picture of the wall at `time` of a replay (`--frame-at`): `at-1.250s.png`.
    func snapshot(at time: Instant, wall: PhotoWall) throws {
        let ms = (time.nanoseconds + 500_000) / 1_000_000
        let frac = String(ms % 1000)
        let stamp = "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
        var line = "\(stamp) s  frame"
        if wall.isScrolling {
            line += ": \(wall.collectionView.scrollPhase.rawValue) at \(Int(wall.collectionView.contentOffset.y.rounded())) pt, \(Int(abs(wall.collectionView.scrollVelocity.y).rounded())) pt/s"
        }
        if let directory {
            let name = "at-\(stamp)s.png"
            canvas.draw(wall.render())
            try save("\(directory)/\(name)")
            line += "  → \(directory)/\(name)"
        }
        out.write(line)
        out.flush()
    }

    /// The last frame.
    func finish(wall: PhotoWall) throws {
        guard let directory else { return }
        canvas.draw(wall.render())
        try save("\(directory)/last.png")
        out.write("last frame → \(directory)/last.png")
        out.flush()
    }

    /// At the end of a live run: how many frames were drawn, and how many while the content
    /// moved on its own ("drew 61 frames, 54 while the content moved on its own").
    /// A line about the run itself (where its input comes from), before any event.
    func say(_ line: String) {
        out.write(line)
        out.flush()
    }

    /// With a window, and only when it happened: how many touch events SDL stamped late ("input:
    /// 16 touch events reached the window late, up to 9 at once: their times, and the velocities
    /// measured from them, are when the window read them").
    func report(_ stats: DrawStatistics, lateTouchEvents: Int = 0, largestLateBatch: Int = 0) {
        out.write("drew \(stats.frames) frames, \(stats.animationFrames) while the content moved on its own")
        if lateTouchEvents > 0 {
            out.write("input: \(lateTouchEvents) touch events reached the window late, up to \(largestLateBatch) at once: their times, and the velocities measured from them, are when the window read them")
        }
        out.flush()
    }

    private func save(_ path: String) throws {
        do {
            try canvas.savePNG(to: path)
        } catch let e as RenderError {
            throw fail(e.description)
        }
    }
}
