import GestureKit

/// What one recording may hold (docs/RECORDING.md, "Budgets"), so that opening any file costs
/// time and memory in proportion to its length: a file past a budget is refused with an error
/// naming the line and the budget, never replayed slowly.
///
/// The budgets are far above what input is: UIKit and libinput track tens of touches, not
/// thousands, and a device's name is tens of bytes. What they bound is the engine's work for
/// one event (every recognizer of a touch's view looks at every touch of its sequence, and a
/// touch whose end a recognizer delays is kept until that recognizer decides) and the memory a
/// reader keeps from line to line (the devices, their names).
extension InputRecording {
    public enum Budget {
        /// Keys in one JSON object (a line, a touch's `pen`): the format's longest line has 10.
        public static let keysPerObject = 16
        /// Bytes of one string (a device's name or system name, a note's text).
        public static let stringBytes = 4096
        /// Changes in one `touch` line: every touch of a device lifting and as many landing.
        public static let changesPerLine = 2 * touchesPerDevice
        /// Touches down at once on one device (a pen's tip and a pointer's buttons count as
        /// one touch each).
        public static let touchesPerDevice = 64
        /// Touches begun in one sequence of the whole recording: from a moment with no touch
        /// down on any device to the next. A touch begun again under the id of one still down
        /// counts as a new one (the engine cancels the old one and keeps it for its view).
        public static let touchesPerSequence = 128
        /// Devices one recording names (distinct `device` numbers, added or not).
        public static let devicesPerFile = 256
    }

    /// Follows a recording's lines in order and checks the budgets that span lines: the
    /// devices named, the touches down on each, the touches of the sequence under way. The
    /// budgets of one line (keys, string bytes, changes) are checked as the line is read.
    /// Constant work a line; memory bounded by the budgets.
    package struct BudgetCheck {
        private var devices: Set<InputDeviceID> = []
        private var contacts = ContactCounter()
        private var sequence = 0

        package init() {}

        /// Checks the line `number`, which read as `entry`.
        package mutating func check(_ entry: Entry, line number: Int) throws {
            guard case let .event(event) = entry else { return }
            let device = ContactCounter.device(of: event)
            if !devices.contains(device) {
                guard devices.count < Budget.devicesPerFile else {
                    throw ReadError(line: number, "\(device) would be device \(Budget.devicesPerFile + 1) of the recording: a recording names at most \(Budget.devicesPerFile)")
                }
                devices.insert(device)
            }
            if contacts.total == 0 { sequence = 0 }
            try contacts.apply(event) { contact, device, downOnDevice in
                sequence += 1
                guard sequence <= Budget.touchesPerSequence else {
                    throw ReadError(line: number, "\(contact) of \(device) would be touch \(sequence) of one sequence (from a moment no touch is down, on any device, to the next): a recording holds at most \(Budget.touchesPerSequence)")
                }
                guard downOnDevice <= Budget.touchesPerDevice else {
                    throw ReadError(line: number, "\(contact) of \(device) would be touch \(downOnDevice) down at once on the device: a recording holds at most \(Budget.touchesPerDevice)")
                }
            }
        }
    }
}

/// The contacts down on each device, followed event by event: what the engine keeps while it
/// is down. A touch by its id (`began` to `ended` or `cancelled`; begun again under an id
/// still down, a new one), a pen's tip (`down` to `up` or `out`), a pointer's button touch
/// (its first primary, secondary or tertiary button pressed to its last released, or
/// `leave`). A device's removal lifts its contacts.
package struct ContactCounter {
    package enum Contact: Hashable, CustomStringConvertible {
        case touch(Int)
        case pen
        case pointer

        package var description: String {
            switch self {
            case let .touch(id): "touch \(id)"
            case .pen: "the pen's tip"
            case .pointer: "the pointer's button touch"
            }
        }
    }

    private var down: [InputDeviceID: Set<Contact>] = [:]
    private var buttons: [InputDeviceID: ButtonMask] = [:]
    /// Contacts down on all devices.
    package private(set) var total = 0

    package init() {}

    /// Applies `event`, calling `began` for each contact it begins (a touch begun again under
    /// its id too) with its device and how many are then down on that device.
    package mutating func apply(_ event: InputEvent, began: (Contact, InputDeviceID, Int) throws -> Void) rethrows {
        switch event {
        case let .touchFrame(frame):
            for change in frame.changes {
                switch change.phase {
                case .began: try begin(.touch(change.sourceID), frame.device, began)
                case .ended, .cancelled: lift(.touch(change.sourceID), frame.device)
                case .moved: break
                }
            }
        case let .pen(pen):
            switch pen.phase {
            case .down: try begin(.pen, pen.device, began)
            case .up, .out: lift(.pen, pen.device)
            case .hover, .moved: break
            }
        case let .pointer(p):
            switch p.kind {
            case .button:
                guard let button = ButtonMask(evdevCode: p.button) else { break }
                var held = buttons[p.device] ?? []
                if p.pressed {
                    if held.isEmpty { try begin(.pointer, p.device, began) }
                    held.insert(button)
                } else {
                    held.remove(button)
                    if held.isEmpty { lift(.pointer, p.device) }
                }
                buttons[p.device] = held
            case .leave:
                buttons[p.device] = nil
                lift(.pointer, p.device)
            case .motion, .scroll:
                break
            }
        case let .deviceRemoved(device, _):
            buttons[device] = nil
            if let contacts = down.removeValue(forKey: device) { total -= contacts.count }
        case .deviceAdded, .touchpadGesture, .modifiers, .eventsDropped, .note:
            break
        }
    }

    private mutating func begin(_ contact: Contact, _ device: InputDeviceID, _ began: (Contact, InputDeviceID, Int) throws -> Void) rethrows {
        var contacts = down[device] ?? []
        if contacts.insert(contact).inserted { total += 1 }
        down[device] = contacts
        try began(contact, device, contacts.count)
    }

    private mutating func lift(_ contact: Contact, _ device: InputDeviceID) {
        guard down[device]?.remove(contact) != nil else { return }
        total -= 1
    }

    /// The device an event is of.
    package static func device(of event: InputEvent) -> InputDeviceID {
        switch event {
        case let .deviceAdded(info): info.id
        case let .touchFrame(frame): frame.device
        case let .touchpadGesture(g): g.device
        case let .pointer(p): p.device
        case let .pen(p): p.device
        case let .modifiers(_, device, _), let .eventsDropped(_, device), let .note(_, device, _),
             let .deviceRemoved(device, _): device
        }
    }
}
