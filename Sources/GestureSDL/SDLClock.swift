import CSDL2
import GestureInput
import GestureKit

/// SDL's clock: milliseconds since SDL started (`SDL_GetTicks64`), the time SDL2 stamps its
/// events with.
public enum SDLClock {
    public static var ticks: Instant { Instant(nanoseconds: Int64(SDL_GetTicks64()) * 1_000_000) }
}

/// SDL's clock (milliseconds since SDL started, CLOCK_MONOTONIC_RAW) on CLOCK_MONOTONIC, the
/// compositor's: the offset between them, measured when the window opens and measured again
/// only when the two clocks drift apart by more than `tolerance` (NTP slews CLOCK_MONOTONIC by
/// at most 0.05 %), so that SDL's events are not shifted back and forth by its millisecond
/// steps.
public struct SDLClockBridge {
    public static let tolerance: Int64 = 2_000_000 /* ns */
    public private(set) var offset: Int64

    public init() {
        offset = MonotonicClock.now().nanoseconds - SDLClock.ticks.nanoseconds
    }

    /// Measures the offset again (it reads up to 1 ms high: SDL counts whole milliseconds) and
    /// keeps the one it had unless they differ by more than `tolerance`.
    public mutating func update() {
        let measured = MonotonicClock.now().nanoseconds - SDLClock.ticks.nanoseconds
        if abs(measured - offset) > Self.tolerance { offset = measured }
    }
}

