import GestureFormat
import GestureKit

extension InputRecording {
    /// One JSON object, field by field, in order, ending with a line end, written as UTF-8
    /// bytes straight into room made at the end of a byte buffer (a recorder's): each field
    /// checks once that its longest text fits, then stores through a pointer, with no string
    /// made for a field, a number or the line. A line that does not fit the room is written
    /// again in four times the room (`append(to:_:)`), so any length is written whole.
    ///
    /// Keys are the format's own names, plain text, copied as they are; strings are escaped as
    /// `jsonString` escapes them; numbers as `number(_:)` writes them.
    package struct Line {
        private let start: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        private var count = 0
        /// A field did not fit: what was written is not a line.
        private var overflowed = false
        private var first = true

        private init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
            self.start = start
            self.capacity = capacity
        }

        /// The room a line is first written in: a touch frame of a few fingers takes 100 to
        /// 300 bytes.
        package static let firstRoom = 512 /* bytes */

        /// Writes the line `fields` makes at the end of `buffer`.
        static func append(to buffer: inout [UInt8], _ fields: (inout Line) -> Void) {
            var room = firstRoom
            while true {
                var fitted = false
                buffer.append(addingCapacity: room) { span in
                    span.withUnsafeMutableBufferPointer { free, initialized in
                        var o = Line(start: free.baseAddress! + initialized, capacity: free.count - initialized)
                        fields(&o)
                        o.end()
                        if !o.overflowed {
                            initialized += o.count
                            fitted = true
                        }
                    }
                }
                if fitted { return }
                room *= 4
            }
        }

        /// The line `fields` makes, as a string.
        static func text(_ fields: (inout Line) -> Void) -> String {
            var bytes: [UInt8] = []
            append(to: &bytes, fields)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Whether `n` more bytes fit; if not, the line is marked overflowed.
        @inline(__always)
        private mutating func room(_ n: Int) -> Bool {
            if count + n <= capacity { return true }
            overflowed = true
            return false
        }

        @inline(__always)
        private mutating func put(_ byte: UInt8) {
            start[count] = byte
            count += 1
        }

        private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress else { return }
            if bytes.count <= 16 {
                // A key or a name: a loop costs less than a call to copy it.
                for i in 0..<bytes.count { start[count &+ i] = base[i] }
            } else {
                (start + count).initialize(from: base, count: bytes.count)
            }
            count += bytes.count
        }

        private mutating func end() {
            guard room(3) else { return }
            if first { put(UInt8(ascii: "{")) }
            put(UInt8(ascii: "}"))
            put(0x0A)
        }

        private mutating func key(_ k: StaticString) {
            guard room(k.utf8CodeUnitCount + 4) else { return }
            put(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            put(UInt8(ascii: "\""))
            put(k)
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ":"))
        }

        private mutating func put(_ text: StaticString) {
            if text.hasPointerRepresentation {
                put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            } else {
                text.withUTF8Buffer { put($0) }
            }
        }

        private mutating func punctuation(_ byte: UInt8) {
            guard room(1) else { return }
            put(byte)
        }

        /// A name of the format's own (an event's `e`, a kind, a phase): plain words, written
        /// as they are between quotes, with no escaping to look for.
        private mutating func quoted(_ v: StaticString) {
            guard room(v.utf8CodeUnitCount + 2) else { return }
            put(UInt8(ascii: "\""))
            put(v)
            put(UInt8(ascii: "\""))
        }

        private mutating func quoted(_ v: String) {
            var v = v
            v.withUTF8 { utf8 in
                if JSONObjectText.isPlain(utf8) {
                    guard room(utf8.count + 2) else { return }
                    put(UInt8(ascii: "\""))
                    put(utf8)
                    put(UInt8(ascii: "\""))
                } else {
                    text(jsonString(String(decoding: utf8, as: UTF8.self)))
                }
            }
        }

        /// A text made elsewhere (an escaped string, a number's rare spellings), as it is.
        private mutating func text(_ v: String) {
            var v = v
            v.withUTF8 { utf8 in
                guard room(utf8.count) else { return }
                put(utf8)
            }
        }

        private mutating func integerText(_ v: Int64) {
            guard room(DecimalText.maximumIntegerBytes) else { return }
            count += DecimalText.writeInteger(v, into: start + count)
        }

        /// `InputRecording.number(x)`'s text, making no string for a finite number.
        private mutating func numberText(_ x: Double) {
            if x.isFinite, x != 0, abs(x) < 1e15, let whole = Int64(exactly: x) {
                integerText(whole)
            } else if x.isFinite, x != 0 {
                guard room(DecimalText.maximumShortestBytes) else { return }
                count += DecimalText.writeShortest(x, into: start + count)
            } else {
                text(InputRecording.number(x))
            }
        }

        mutating func name(_ k: StaticString, _ v: StaticString) {
            key(k)
            quoted(v)
        }
        mutating func string(_ k: StaticString, _ v: String) {
            key(k)
            quoted(v)
        }
        mutating func integer(_ k: StaticString, _ v: Int) {
            key(k)
            integerText(Int64(v))
        }
        mutating func integer(_ k: StaticString, _ v: Int64) {
            key(k)
            integerText(v)
        }
        mutating func number(_ k: StaticString, _ v: Double) {
            key(k)
            numberText(v)
        }
        mutating func bool(_ k: StaticString, _ v: Bool) {
            key(k)
            guard room(5) else { return }
            put(v ? "true" : "false" as StaticString)
        }
        mutating func pair(_ k: StaticString, _ a: Double, _ b: Double) {
            key(k)
            punctuation(UInt8(ascii: "["))
            numberText(a)
            punctuation(UInt8(ascii: ","))
            numberText(b)
            punctuation(UInt8(ascii: "]"))
        }
        mutating func strings(_ k: StaticString, _ v: [String]) {
            key(k)
            punctuation(UInt8(ascii: "["))
            for (i, s) in v.enumerated() {
                if i > 0 { punctuation(UInt8(ascii: ",")) }
                quoted(s)
            }
            punctuation(UInt8(ascii: "]"))
        }
        /// A touch frame's `changes`: `[[id,"phase",x,y],...]`.
        mutating func changes(_ changes: [TouchChange]) {
            key("changes")
            punctuation(UInt8(ascii: "["))
            for (i, c) in changes.enumerated() {
                if i > 0 { punctuation(UInt8(ascii: ",")) }
                punctuation(UInt8(ascii: "["))
                integerText(Int64(c.sourceID))
                punctuation(UInt8(ascii: ","))
                quoted(c.phase.formatName)
                punctuation(UInt8(ascii: ","))
                numberText(c.location.x)
                punctuation(UInt8(ascii: ","))
                numberText(c.location.y)
                punctuation(UInt8(ascii: "]"))
            }
            punctuation(UInt8(ascii: "]"))
        }
        /// A nested object, its fields written by `fields`.
        mutating func object(_ k: StaticString, _ fields: (inout Line) -> Void) {
            key(k)
            let outerFirst = first
            first = true
            fields(&self)
            if first { punctuation(UInt8(ascii: "{")) }
            punctuation(UInt8(ascii: "}"))
            first = outerFirst
        }
        mutating func time(_ t: Instant) { integer("t", t.nanoseconds) }
    }
}
