import GestureTraces

/// The keys a multitouch device's kernel driver presses for how many contacts are down, as
/// touchscreens and touchpads send them: `BTN_TOUCH` while any contact is down, and one of
/// `BTN_TOOL_FINGER`, `BTN_TOOL_DOUBLETAP`, `BTN_TOOL_TRIPLETAP`, `BTN_TOOL_QUADTAP` and
/// `BTN_TOOL_QUINTTAP` for one, two, three, four and five or more, each only where the device
/// has it. Both encoders send them after a frame's slots, before its `SYN_REPORT`.
enum ContactCountKeys {
    private static let tools: [EventCode] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnToolQuadTap, .btnToolQuintTap]

    /// The key events (code, value) that take `device` from `wasDown` contacts to `down`.
    static func changes(from wasDown: Int, to down: Int, on device: EvdevDeviceDescription) -> [(code: EventCode, value: Int32)] {
        var out: [(code: EventCode, value: Int32)] = []
        if wasDown == 0 && down > 0 { out.append((.btnTouch, 1)) }
        if wasDown > 0 && down == 0 { out.append((.btnTouch, 0)) }
        guard down != wasDown else { return out }
        for (i, code) in tools.enumerated() where device.has(.key, code) {
            // The last tool counts five contacts or more.
            let was = wasDown == i + 1 || (i == tools.count - 1 && wasDown >= tools.count)
            let now = down == i + 1 || (i == tools.count - 1 && down >= tools.count)
            if was != now { out.append((code, now ? 1 : 0)) }
        }
        return out
    }
}
