/// Text that came from a file (a device's name in a recording, a note, a key of a JSON line),
/// made safe to print on a terminal.
///
/// **The rule:** everything GestureKit prints for a person (`gesturekit inspect`, replay lines,
/// every error message) passes a file's text through `printable`, so a recording cannot
/// drive the reader's terminal: the C0 controls (ESC among them), DEL and the C1 controls
/// (U+0080 to U+009F: a terminal may take U+009B as CSI), and the bidirectional overrides and
/// isolates that make text display in another order than it reads, are written as `\u{1B}`.
/// A line break is escaped too unless `keepingLineBreaks` (a message that is several lines).
/// Text with none of them comes back as it is, with no copy.
package func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks) }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for u in text.unicodeScalars {
        if needsEscape(u, keepingLineBreaks) {
            out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        } else {
            out.unicodeScalars.append(u)
        }
    }
    return out
}

@inline(__always)
private func needsEscape(_ u: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool {
    switch u.value {
    case 0x09: return false
    case 0x0A: return !keepingLineBreaks
    case 0x00..<0x20, 0x7F..<0xA0: return true
    // Arabic letter mark, left-to-right and right-to-left marks, embeddings and overrides,
    // isolates.
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}
