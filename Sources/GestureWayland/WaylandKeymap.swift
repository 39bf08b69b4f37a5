import CXKBCommon
import GestureKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A keyboard's keymap as the compositor sends it (`wl_keyboard.keymap`, XKB text), read with
/// xkbcommon for one thing: which bits of `wl_keyboard.modifiers`' masks are Shift, Control,
/// Alt (Mod1), Super (Mod4) and Caps Lock (Lock), whatever the layout puts where. The only
/// place GestureWayland calls xkbcommon.
final class WaylandKeymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    /// Each modifier's bit in the masks (0 where the keymap lacks it).
    private let shift: UInt32, control: UInt32, alternate: UInt32, command: UInt32, capsLock: UInt32

    /// Reads the keymap the compositor sent in `fd` (`size` bytes, NUL included). Nil when it
    /// is not XKB text or xkbcommon refuses it: the keyboard's modifiers are then not read.
    init?(fd: Int32, size: Int) {
        guard size > 0, let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, size) }
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        let text = map.assumingMemoryBound(to: CChar.self)
        guard let keymap = xkb_keymap_new_from_buffer(context, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1,
                                                      XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(context)
            return nil
        }
        self.context = context
        self.keymap = keymap
        func bit(_ name: String) -> UInt32 {
            let index = xkb_keymap_mod_get_index(keymap, name)
            return index == XKB_MOD_INVALID || index >= 32 ? 0 : 1 << index
        }
        shift = bit(XKB_MOD_NAME_SHIFT)
        control = bit(XKB_MOD_NAME_CTRL)
        alternate = bit(XKB_MOD_NAME_ALT)
        command = bit(XKB_MOD_NAME_LOGO)
        capsLock = bit(XKB_MOD_NAME_CAPS)
    }

    deinit {
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The flags of `wl_keyboard.modifiers`' masks: a modifier held (depressed) or latched
    /// (a sticky key) is on; Caps Lock is `alphaShift` while locked.
    func flags(depressed: UInt32, latched: UInt32, locked: UInt32) -> ModifierFlags {
        let held = depressed | latched
        var f: ModifierFlags = []
        if held & shift != 0 { f.insert(.shift) }
        if held & control != 0 { f.insert(.control) }
        if held & alternate != 0 { f.insert(.alternate) }
        if held & command != 0 { f.insert(.command) }
        if locked & capsLock != 0 { f.insert(.alphaShift) }
        return f
    }
}
