import CLibseat
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How libinput's devices are opened (its `open_restricted`).
public enum DeviceAccess: String, Hashable, Sendable, CaseIterable {
    /// Through the seat when a seat daemon or a logind session is there, plain `open()`
    /// otherwise.
    case automatic = "auto"
    /// Through the seat only (libseat: seatd or logind), as compositors do: a kiosk user
    /// logged in on the seat needs no `input` group.
    case seat = "libseat"
    /// Plain `open()`: the user needs read access to /dev/input (the `input` group, or root).
    case direct = "open"
}

/// A libseat session: the seat's devices opened for us by seatd or logind.
///
/// libseat 0.7 (Debian's libseat-dev). The session is taken when the seat is enabled
/// (`enable_seat`); while it is disabled (a VT switch away) opening fails with EPERM.
final class SeatSession {
    private(set) var seat: OpaquePointer?
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    private(set) var active = false
    /// libseat's device id for each file descriptor it opened.
    private var deviceIDs: [Int32: Int32] = [:]

    enum Failure: Error, CustomStringConvertible {
        case noSeat
        case notActivated(seconds: Double)

        var description: String {
            switch self {
            case .noSeat: return "libseat could not open a seat (no seatd socket, no logind session)"
            case let .notActivated(s): return "libseat opened a seat but it was not enabled within \(s) s"
            }
        }
    }

    /// Whether a seat daemon or a logind session is there to ask: seatd's socket
    /// (`$SEATD_SOCK`, else /run/seatd.sock), or a logind session (a non-empty
    /// `$XDG_SESSION_ID` with /run/systemd/seats present; a umockdev testbed empties it).
    static func seatAvailable() -> Bool {
        let socket = getenv("SEATD_SOCK").map { String(cString: $0) } ?? "/run/seatd.sock"
        var st = stat()
        if stat(socket, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK { return true }
        guard let session = getenv("XDG_SESSION_ID"), session.pointee != 0 else { return false }
        return access("/run/systemd/seats", F_OK) == 0
    }

    /// Opens the seat and waits up to `timeout` seconds for it to be enabled.
    init(timeout: Double = 2) throws {
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_SILENT)
        listener = .allocate(capacity: 1)
        listener.initialize(to: libseat_seat_listener(
            enable_seat: { _, userData in
                guard let userData else { return }
                Unmanaged<SeatSession>.fromOpaque(userData).takeUnretainedValue().active = true
            },
            disable_seat: { seat, userData in
                if let userData {
                    Unmanaged<SeatSession>.fromOpaque(userData).takeUnretainedValue().active = false
                }
                // libseat requires the acknowledgement.
                _ = libseat_disable_seat(seat)
            }))
        seat = nil
        guard let seat = libseat_open_seat(listener, Unmanaged.passUnretained(self).toOpaque()) else {
            listener.deallocate()
            throw Failure.noSeat
        }
        self.seat = seat
        var waited = 0.0
        while !active && waited < timeout {
            if libseat_dispatch(seat, 50) < 0 { break }
            waited += 0.05
        }
        guard active else {
            libseat_close_seat(seat)
            self.seat = nil
            listener.deallocate()
            throw Failure.notActivated(seconds: timeout)
        }
    }

    deinit {
        if let seat {
            for id in deviceIDs.values { _ = libseat_close_device(seat, id) }
            libseat_close_seat(seat)
            listener.deallocate()
        }
    }

    /// The seat's name (seat0).
    var name: String {
        guard let seat, let name = libseat_seat_name(seat) else { return "" }
        return String(cString: name)
    }

    /// Opens `path` through the seat: a file descriptor, or -errno.
    func openDevice(_ path: UnsafePointer<CChar>) -> Int32 {
        guard let seat else { return -ENODEV }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        guard id >= 0, fd >= 0 else { return -(errno == 0 ? EACCES : errno) }
        deviceIDs[fd] = id
        return fd
    }

    /// Closes a descriptor `openDevice` returned (false: not one of the seat's).
    func closeDevice(_ fd: Int32) -> Bool {
        guard let seat, let id = deviceIDs.removeValue(forKey: fd) else { return false }
        _ = libseat_close_device(seat, id)
        close(fd)
        return true
    }
}

/// EVIOCGRAB: take an evdev device for this process alone (true) or give it back.
func grabDevice(_ fd: Int32, _ grab: Bool) -> Bool {
    gesturekit_evdev_grab(fd, grab ? 1 : 0) == 0
}
