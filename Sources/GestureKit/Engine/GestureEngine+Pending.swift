/// What the engine is still waiting for, for tools and tests that ask "why has this not come
/// to rest?": each recognizer's deadline, the end of a wheel's scroll, each running display
/// link's next frame. Read-only: it changes nothing and fires nothing.
extension GestureEngine {
    /// One thing the engine waits for, and when.
    package struct PendingDeadline: Hashable, Sendable, CustomStringConvertible {
        package var time: Instant
        /// What waits, in words: "longPress#1's deadline", "a display link at 60 frames a
        /// second (scroll view list's animation)".
        package var what: String
        package var description: String { "\(what) at \(formatTime(time)) s" }
    }

    /// Everything the engine waits for, earliest first.
    package func pendingDeadlines() -> [PendingDeadline] {
        var pending: [PendingDeadline] = []
        for (index, record) in storage.table.records.enumerated() where record.isAttached {
            guard let deadline = record.timer.armed else { continue }
            pending.append(PendingDeadline(time: deadline, what: "\(recognizer(RecognizerSlot(rawValue: index)).name)'s deadline"))
        }
        if let wheel = storage.pointer.wheelDeadline {
            pending.append(PendingDeadline(time: wheel, what: "the end of a wheel's scroll"))
        }
        for link in storage.displayLinks {
            guard let frame = link.nextFrame else { continue }
            let owner = link.label.map { " (\($0))" } ?? ""
            pending.append(PendingDeadline(time: frame, what: "a display link at \(link.frameRate) frames a second\(owner)"))
        }
        return pending.sorted { $0.time < $1.time }
    }
}
