import ArgumentParser
import GestureGTK
import GestureInput
import GestureKit
import GestureRecording
import PhotoWallApp
#if canImport(Glibc)
import Glibc
#endif

/// `photowall-gtk`: the PhotoWall example in a GTK 4 window. The wall is PhotoWallApp's, the
/// same scene, recognizers and collection view as the SDL `photowall`: tap to select, double
/// tap to zoom a photo, pinch to resize the tiles, pan and fling to scroll, long press to pick
/// a photo up and move it. Here GestureGTK feeds it (GDK's touches, mouse, wheel and touchpad
/// gestures, on GDK's event times and GLib's main loop), the display list is drawn with cairo
/// in a `GtkDrawingArea`, and a right click opens the photo's context menu (the wall's
/// `ContextMenuInteraction`), which GTK draws as a `GtkPopoverMenu`.
@main
struct PhotoWallGTK: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photowall-gtk",
        abstract: "The PhotoWall example in a GTK 4 window, through GestureGTK.",
        discussion: "Prints each recognized gesture as photowall does (\"0.324 s  tap: selected Sunrise 13\"). Stops after --duration seconds, when the window closes, or at Ctrl-C.")

    @Option(help: "The window's size in points, WIDTHxHEIGHT.")
    var size = "1280x800"

    @Option(help: "Seconds to run (default: until the window closes or Ctrl-C).")
    var duration: Double?

    @Option(name: .customLong("ready-file"), help: "Create this file once the window is drawn at --size (the compositor gave it that size: it is on screen and can take input); --duration then counts from it.")
    var readyFile: String?

    @Option(help: "Also write what the wall received from GTK, as it received it, to this GestureKit input recording (docs/RECORDING.md): `photowall --replay FILE` plays it back.")
    var record: String?

    @Option(help: "Write a PNG of the wall as drawn in the window to this file, --screenshot-at seconds after the start.")
    var screenshot: String?

    @Option(name: .customLong("screenshot-at"), help: "Seconds after the start for --screenshot.")
    var screenshotAt = 2.0

    @Option(name: .customLong("screenshot-when"), help: ArgumentHelp(
        "Write --screenshot when the wall first does this (\(PhotoWallEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))), once it is drawn, instead of at --screenshot-at.",
        valueName: "event"))
    var screenshotWhen: PhotoWallEvent.Kind?

    /// Says on standard error each event GTK delivered and when it arrived (`EventArrivalReport`).
    @Flag(name: .customLong("report-events"), help: .hidden)
    var reportEvents = false

    func run() throws {
        let parts = size.split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw ValidationError("--size: expected WIDTHxHEIGHT, e.g. 1280x800") }
        let app = GTKWall(wall: PhotoWall(screen: Size(width: parts[0], height: parts[1])))
        let window: GTKGestureWindow
        do {
            // With --record, the recorder sits between GTK and the wall.
            var client: any LiveInputClient = try record.map {
                try GestureRecorder(recordingTo: $0, source: .gtk, screen: app.wall.screen, passingTo: app)
            } ?? app
            if reportEvents { client = EventArrivalReport(program: "photowall-gtk", passingTo: client) }
            window = try GTKGestureWindow(title: "PhotoWall", size: app.wall.screen, client: client, engine: app.wall.engine)
        } catch {
            print("photowall-gtk: \(error)")
            throw ExitCode(1)
        }
        app.attach(to: window)
        if let screenshot {
            let save = { [unowned window] in
                print(window.savePNG(to: screenshot) ? "screenshot: \(screenshot)" : "screenshot: the window could not be drawn to \(screenshot)")
                fflush(nil)
            }
            if let screenshotWhen {
                // After the frame that shows it: the next paint once the wall did it.
                app.onEvent = { [unowned app, unowned window] event in
                    guard event.kind == screenshotWhen else { return }
                    app.onEvent = nil
                    let drawn = window.onDrawn
                    window.onDrawn = { [unowned window] size in
                        drawn?(size)
                        window.onDrawn = drawn
                        window.after(.zero, save)
                    }
                }
            } else {
                window.after(Duration(seconds: screenshotAt), save)
            }
        }
        if let readyFile {
            var announced = false
            let (size, duration) = (app.wall.screen, self.duration)
            window.onDrawn = { [unowned window] drawn in
                guard !announced, drawn == size else { return }
                announced = true
                let fd = open(readyFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                if fd >= 0 { close(fd) }
                if let duration { window.after(Duration(seconds: duration)) { [weak window] in window?.stopRunning() } }
            }
            window.run()
        } else {
            window.run(timeLimit: duration.map(Duration.init(seconds:)))
        }
        app.report()
    }
}

/// The wall as GestureGTK's client: input to the wall, its events printed, its display list
/// drawn with cairo.
final class GTKWall: LiveInputClient {
    let wall: PhotoWall
    private weak var window: GTKGestureWindow?
    private var frames = 0

    init(wall: PhotoWall) {
        self.wall = wall
    }

    /// The wall's context menu (a right click on a photo) is GTK's to draw here: a
    /// `GtkPopoverMenu` from the window's presenter, whose items run the wall's actions.
    func attach(to window: GTKGestureWindow) {
        self.window = window
        window.draw = { [unowned self] context in draw(in: context) }
        if window.contextMenus != nil {
            wall.drawsContextMenu = false
            window.contextMenus?.onPopover = { [unowned self] popover in
                printEvents()
                print("\(Self.stamp(wall.engine.now)) s  menu: popover \(popover == nil ? "closed" : "shown")")
                fflush(nil)
            }
        }
    }

    func handle(_ event: InputEvent) {
        if case .deviceAdded = event { return }
        wall.send(event)
        printEvents()
    }

    var nextDeadline: Instant? { wall.nextDeadline }

    func advance(to now: Instant) {
        wall.advance(to: now)
        printEvents()
    }

    func finish() {
        wall.finish()
        printEvents()
    }

    func report() {
        print("drew \(frames) frames")
    }

    /// Called with each event the wall reports, after it is printed.
    var onEvent: ((PhotoWallEvent) -> Void)?

    private func printEvents() {
        for event in wall.takeEvents() {
            print(event.description)
            onEvent?(event)
        }
        fflush(nil)
    }

    /// Seconds with three decimals, as PhotoWall's events print their time.
    static func stamp(_ time: Instant) -> String {
        let ms = (time.nanoseconds + 500_000) / 1_000_000
        let frac = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }

    private func draw(in context: GTKDrawingContext) {
        frames += 1
        let list = wall.render()
        func set(_ c: Color) {
            context.setColor(red: Double(c.r) / 255, green: Double(c.g) / 255, blue: Double(c.b) / 255, alpha: Double(c.a) / 255)
        }
        set(list.background)
        context.fill(Rect(origin: .zero, size: context.size))
        for command in list.commands {
            switch command {
            case let .fill(rect, color):
                set(color)
                context.fill(rect)
            case let .ring(rect, width, color):
                set(color)
                context.stroke(rect, width: width)
            case let .disc(center, radius, color):
                set(color)
                context.fillCircle(center: center, radius: radius)
            case let .text(string, rect, size, style, alignment, color):
                set(color)
                let align: GTKDrawingContext.TextAlignment = alignment == .center ? .center : alignment == .right ? .right : .left
                context.text(string, in: rect, size: size, bold: style == .bold, alignment: align)
            }
        }
    }
}

extension PhotoWallEvent.Kind: ExpressibleByArgument {}
