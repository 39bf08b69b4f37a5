#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The screen against a kept picture (`compare FILE.png [TOLERANCE_PERCENT]`). The rule:
///
/// - A pixel differs when any of its channels differs from the kept picture's by more than
///   `comparisonChannelTolerance` (16 of 255: what antialiasing and dithering move, not what a
///   changed widget moves); the screen matches when at most `tolerance` of its pixels differ.
/// - The app may still be drawing what the last step did (on a loaded machine, it may not
///   have begun): screenshots are taken until one matches, for at most `timeout` seconds
///   (`compareTimeout`, 5, by default); a mismatch is decided by the last one, never earlier.
///   A screenshot of another size than the kept picture's fails at once.
/// - A mismatch fails the session, naming the share of pixels that differ and the tolerance,
///   and writes the screenshot compared beside the kept picture as `FILE.actual.png` (a CI
///   job's artifact); a match removes a `FILE.actual.png` left by an earlier run.
/// - No kept picture: with `record` (the default) the settled screen is written there and the
///   step passes, saying so (commit the picture); without it (`--no-record`, what CI should
///   use), the step fails naming the missing file.
extension DriveSession {
    /// Per channel, of 255: how far a pixel may move and still be the same.
    public static let comparisonChannelTolerance: UInt8 = 16
    /// Seconds a comparison waits for the screen to match (or to settle, to record it).
    public static let compareTimeout = 5.0

    /// What a comparison found.
    public struct Comparison: Hashable, Sendable, CustomStringConvertible {
        public enum Outcome: Hashable, Sendable {
            /// The screen matched the kept picture.
            case matched
            /// There was no kept picture: the screen was recorded as it.
            case recorded
        }

        public var path: String
        public var outcome: Outcome
        /// The share of pixels (0…1) that differ (0 when recorded).
        public var difference: Double
        /// The share allowed.
        public var tolerance: Double
        /// The screenshot's size, in pixels.
        public var width: Int
        public var height: Int

        public var description: String {
            switch outcome {
            case .matched:
                return "matches \(path): \(percent(difference)) of its pixels differ, within the tolerance of \(percent(tolerance))"
            case .recorded:
                return "there was no kept picture \(path): recorded the screen there (\(width) × \(height)); keep it with your tests"
            }
        }
    }

    /// Where a mismatching screenshot is written: `FILE.actual.png` beside `FILE.png`.
    public static func actualPath(for path: String) -> String {
        path.hasSuffix(".png") ? String(path.dropLast(4)) + ".actual.png" : path + ".actual.png"
    }

    /// Compares the screen with the kept picture at `path` (PNG): matched when at most
    /// `tolerance` (0…1) of its pixels differ, waiting up to `timeout` seconds for it to. See
    /// the rule above; throws `DriveError.screenDiffers`, `.noKeptPicture` or `.badPicture`.
    @discardableResult
    public func compare(with path: String, tolerance: Double = 0.01, record: Bool = true,
                        timeout: Double = compareTimeout) throws -> Comparison {
        do {
            guard access(path, F_OK) == 0 else {
                guard record else { throw DriveError.noKeptPicture(path: path) }
                let shot = try settledScreenshot(limit: timeout)
                try writeFile(path, shot.png, mode: 0o644)
                return Comparison(path: path, outcome: .recorded, difference: 0, tolerance: tolerance, width: shot.width, height: shot.height)
            }
            guard let bytes = readBytes(path) else {
                throw DriveError.badPicture(path: path, why: "it cannot be read (\(String(cString: strerror(errno))))")
            }
            let kept = try Screenshot(png: bytes, path: path)
            let deadline = monotonic() + timeout
            while true {
                let shot = try screenshot()
                let now = monotonic()
                let difference = shot.difference(from: kept, tolerance: Self.comparisonChannelTolerance)
                let sameSize = shot.width == kept.width && shot.height == kept.height
                if sameSize && difference <= tolerance {
                    unlink(Self.actualPath(for: path))
                    return Comparison(path: path, outcome: .matched, difference: difference, tolerance: tolerance,
                                      width: shot.width, height: shot.height)
                }
                if !sameSize || now > deadline {
                    let actual = Self.actualPath(for: path)
                    try writeFile(actual, shot.png, mode: 0o644)
                    throw DriveError.screenDiffers(
                        path: path, difference: difference, tolerance: tolerance, actual: actual,
                        sizes: sameSize ? nil : "the screen is \(shot.width) × \(shot.height), the kept picture \(kept.width) × \(kept.height)")
                }
                usleep(100_000)
            }
        } catch {
            failed = true
            throw error
        }
    }

    /// A screenshot once two taken `settleInterval` apart agree, or the last after `limit` s.
    func settledScreenshot(limit: Double) throws -> Screenshot {
        let deadline = monotonic() + limit
        var last = try screenshot()
        while monotonic() < deadline {
            usleep(useconds_t(Self.settleInterval * 1_000_000))
            let next = try screenshot()
            if next == last { return next }
            last = next
        }
        return last
    }
}
