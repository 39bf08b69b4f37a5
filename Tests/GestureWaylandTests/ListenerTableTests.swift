@testable import GestureWayland
import Testing

/// The listener tables are filled field by field (libwayland's headers differ in which fields
/// they have): every event the compositor may send at the version bound has its handler, and a
/// field this header has that the table below does not know (a newer libwayland's event) must
/// belong to a version above the one bound. libwayland aborts on an event whose handler is NULL.
@Suite struct ListenerTableTests {
    /// Each event's `since` version in wayland.xml (up to libwayland 1.26, Debian sid's; older headers have fewer).
    static let seatEvents = ["capabilities": 1, "name": 2]
    static let touchEvents = ["down": 1, "up": 1, "motion": 1, "frame": 1, "cancel": 1, "shape": 6, "orientation": 6]
    static let keyboardEvents = ["keymap": 1, "enter": 1, "leave": 1, "key": 1, "modifiers": 1, "repeat_info": 4]
    static let pointerEvents = ["enter": 1, "leave": 1, "motion": 1, "button": 1, "axis": 1, "frame": 5, "axis_source": 5,
                                "axis_stop": 5, "axis_discrete": 5, "axis_value120": 8, "axis_relative_direction": 9,
                                "warp": 11]

    /// The fields of a C listener table: their names, and whether each holds a handler.
    static func fields(of table: Any) -> [(name: String, isSet: Bool)] {
        Mirror(reflecting: table).children.map { child in
            let value = Mirror(reflecting: child.value)
            let isSet = !(value.displayStyle == .optional && value.children.isEmpty)
            return (child.label ?? "?", isSet)
        }
    }

    @Test("every wl_seat, wl_touch, wl_pointer and wl_keyboard event the compositor may send at the bound seat version has a handler",
          arguments: [("wl_seat", 0), ("wl_touch", 1), ("wl_pointer", 2), ("wl_keyboard", 3)])
    func tablesCoverTheBoundVersion(_ name: String, _ index: Int) {
        let table: Any = ([SeatListeners.seat, SeatListeners.touch, SeatListeners.pointer, SeatListeners.keyboard] as [Any])[index]
        let events = [Self.seatEvents, Self.touchEvents, Self.pointerEvents, Self.keyboardEvents][index]
        let bound = Int(WaylandConnection.seatVersion)
        let fields = Self.fields(of: table)
        #expect(!fields.isEmpty, "\(name)_listener has fields")
        for field in fields {
            guard let since = events[field.name] else {
                Issue.record("\(name)_listener has a field this test does not know, '\(field.name)': a newer libwayland's event; add its version to the table")
                continue
            }
            if since <= bound {
                #expect(field.isSet, "\(name).\(field.name) (version \(since)) can arrive at seat version \(bound): it needs a handler")
            }
        }
        for (event, since) in events where since <= bound {
            #expect(fields.contains { $0.name == event }, "\(name)_listener has '\(event)' (version \(since)) in every supported libwayland")
        }
    }

    /// The data device's events (wl_data_device_manager bound at most at 3).
    static let dataDeviceEvents = ["data_offer": 1, "enter": 1, "leave": 1, "motion": 1, "drop": 1, "selection": 1]
    static let dataOfferEvents = ["offer": 1, "source_actions": 3, "action": 3]
    static let dataSourceEvents = ["target": 1, "send": 1, "cancelled": 1, "dnd_drop_performed": 3, "dnd_finished": 3, "action": 3]

    @Test("every wl_data_device, wl_data_offer and wl_data_source event the compositor may send at version 3 has a handler",
          arguments: [("wl_data_device", 0), ("wl_data_offer", 1), ("wl_data_source", 2)])
    func dataDeviceTablesCoverVersion3(_ name: String, _ index: Int) {
        let table: Any = ([DataDeviceListeners.device, DataDeviceListeners.offer, DataDeviceListeners.source] as [Any])[index]
        let events = [Self.dataDeviceEvents, Self.dataOfferEvents, Self.dataSourceEvents][index]
        let fields = Self.fields(of: table)
        #expect(fields.map(\.name).sorted() == events.keys.sorted(), "\(name)_listener's fields are the events of version 3")
        for field in fields {
            #expect(field.isSet, "\(name).\(field.name) can arrive at version 3: it needs a handler")
        }
    }
}
