import GestureFormat
import GestureKit

/// What the project says of each kind of recognizer outside the kind's own file, in one
/// place: the numeric parameters a scene gives it and what each must be, the keys of its own
/// beyond those every kind takes (with how each is read), the touch types it sees by default,
/// what a scene must give it, how the recognizer is made, and the state-machine diagrams drawn
/// of it. A new kind is its file in GestureKit (its machine and class), a case of
/// `Scene.Kind` and its entry here; `Scene.parseRecognizer`, `LiveScene.make` and
/// `StateMachineDiagram.builtIn` read nothing else about kinds.
extension Scene.Kind {
    struct Format {
        /// A key of the kind's own: reads the value at the path into the spec.
        typealias ReadKey = (inout Scene.RecognizerSpec, JSONValue, String) throws -> Void

        /// Its numeric parameters (REPLAY.md's table), with what each must be.
        var parameters: [String: Scene.ParameterRule] = [:]
        /// Its keys beyond the ones every kind takes.
        var keys: [String: ReadKey] = [:]
        /// The touch types it sees unless the scene says otherwise.
        var touchTypes: TouchTypes = .all
        /// What a scene must give it, checked once every key is read (the recognizer's path).
        var check: (Scene.RecognizerSpec, String) throws -> Void = { _, _ in }
        /// The state-machine diagrams drawn of the kind (docs/diagrams), each of a
        /// recognizer set up as its title says.
        var diagrams: [Scene.KindDiagram] = []
        /// The recognizer, from a valid spec.
        var make: (Scene.RecognizerSpec) -> GestureRecognizer
    }

    /// Every kind's diagrams, in the kinds' order.
    package static var diagrams: [Scene.KindDiagram] { allCases.flatMap(\.format.diagrams) }

    var format: Format {
        switch self {
        case .tap:
            Format(parameters: ["taps": .count, "touches": .count, "allowableMovement": .distance,
                                "maximumTapDuration": .duration, "maximumTapInterval": .duration,
                                "maximumTapDistance": .distance],
                   keys: ["buttonMaskRequired": Self.readButtonMask],
                   diagrams: [Scene.KindDiagram(file: "tap", title: "TapGestureRecognizer") { TapGestureRecognizer() },
                              Scene.KindDiagram(file: "double-tap", title: "TapGestureRecognizer, numberOfTapsRequired 2") {
                                  TapGestureRecognizer(taps: 2)
                              }]) { spec in
                let p = spec.parameters
                let r = TapGestureRecognizer(taps: Int(p["taps"] ?? 1), touches: Int(p["touches"] ?? 1), name: spec.id)
                if let v = p["allowableMovement"] { r.allowableMovement = v }
                if let v = p["maximumTapDuration"] { r.maximumTapDuration = Duration(seconds: v) }
                if let v = p["maximumTapInterval"] { r.maximumTapInterval = Duration(seconds: v) }
                if let v = p["maximumTapDistance"] { r.maximumTapDistance = v }
                return r
            }
        case .longPress:
            Format(parameters: ["minimumPressDuration": .duration, "allowableMovement": .distance, "touches": .count,
                                "taps": .countOrZero],
                   keys: ["buttonMaskRequired": Self.readButtonMask],
                   diagrams: [Scene.KindDiagram(file: "long-press", title: "LongPressGestureRecognizer") { LongPressGestureRecognizer() }]) { spec in
                let p = spec.parameters
                let r = LongPressGestureRecognizer(
                    minimumPressDuration: p["minimumPressDuration"].map(Duration.init(seconds:)) ?? GestureDefaults.minimumPressDuration,
                    touches: Int(p["touches"] ?? 1), name: spec.id)
                if let v = p["allowableMovement"] { r.allowableMovement = v }
                if let v = p["taps"] { r.numberOfTapsRequired = Int(v) }
                return r
            }
        case .pinch:
            Format(parameters: ["threshold": .distance],
                   diagrams: [Scene.KindDiagram(file: "pinch", title: "PinchGestureRecognizer") { PinchGestureRecognizer() }]) { spec in
                let r = PinchGestureRecognizer(name: spec.id)
                if let v = spec.parameters["threshold"] { r.spanThreshold = v }
                return r
            }
        case .pan:
            Format(parameters: ["minimumTouches": .count, "maximumTouches": .count, "threshold": .distance],
                   keys: ["direction": Self.readPanDirection, "allowedScrollTypes": Self.readScrollTypes],
                   check: Self.checkTouchCounts,
                   diagrams: [Scene.KindDiagram(file: "pan", title: "PanGestureRecognizer") { PanGestureRecognizer() }]) { spec in
                let p = spec.parameters
                let r = PanGestureRecognizer(minimumTouches: Int(p["minimumTouches"] ?? 1),
                                             maximumTouches: p["maximumTouches"].map { Int($0) } ?? .max, name: spec.id)
                if let v = p["threshold"] { r.threshold = v }
                r.allowedScrollTypes = spec.allowedScrollTypes
                r.allowedDirections = spec.panDirections
                return r
            }
        case .rotation:
            Format(parameters: ["threshold": .angle],
                   diagrams: [Scene.KindDiagram(file: "rotation", title: "RotationGestureRecognizer") { RotationGestureRecognizer() }]) { spec in
                let r = RotationGestureRecognizer(name: spec.id)
                if let v = spec.parameters["threshold"] { r.threshold = v }
                return r
            }
        case .swipe:
            Format(parameters: ["touches": .count, "minimumDistance": .distance, "maximumDuration": .duration],
                   keys: ["direction": { spec, value, path in spec.direction = try Scene.parseDirection(value, path: path) }],
                   diagrams: [Scene.KindDiagram(file: "swipe", title: "SwipeGestureRecognizer") { SwipeGestureRecognizer() }]) { spec in
                let p = spec.parameters
                let r = SwipeGestureRecognizer(direction: spec.direction, touches: Int(p["touches"] ?? 1), name: spec.id)
                if let v = p["minimumDistance"] { r.minimumDistance = v }
                if let v = p["maximumDuration"] { r.maximumDuration = Duration(seconds: v) }
                return r
            }
        case .hover:
            Format { spec in HoverGestureRecognizer(name: spec.id) }
        case .contextMenu:
            // The scene's menu makes the interaction (SceneMenus.swift); a recognizer made
            // here alone (a diagram) has none, and opens nothing.
            Format(parameters: ["minimumPressDuration": .duration, "liftDelay": .duration, "allowableMovement": .distance],
                   keys: ["menu": { spec, value, path in spec.menu = try Scene.parseMenu(value, path: path) }],
                   check: { spec, path in
                       if spec.menu.isEmpty { throw SceneError(path: "\(path).menu", message: "missing (expected an array of menu entries)") }
                   }) { spec in
                SceneMenuDelegate(spec).interaction.gestureRecognizer
            }
        case .screenEdgePan:
            // UIKit's screen edge pan takes direct touches only.
            Format(parameters: ["minimumTouches": .count, "maximumTouches": .count, "threshold": .distance,
                                "marginPoints": .distance, "marginMillimetres": .millimetres],
                   keys: ["edges": Self.readEdges], touchTypes: .direct,
                   check: { spec, path in
                       if spec.edges.isEmpty {
                           throw SceneError(path: "\(path).edges", message: "missing (expected one or more of \(Scene.edgeNames.keys.sorted().joined(separator: ", ")))")
                       }
                       try Self.checkTouchCounts(spec, path)
                   },
                   diagrams: [Scene.KindDiagram(file: "screen-edge-pan", title: "ScreenEdgePanGestureRecognizer, left edge",
                                                 start: Point(x: 5, y: 400)) {
                              ScreenEdgePanGestureRecognizer(edges: .left)
                          }]) { spec in
                let p = spec.parameters
                let r = ScreenEdgePanGestureRecognizer(edges: spec.edges, name: spec.id)
                if let v = p["minimumTouches"] { r.minimumNumberOfTouches = Int(v) }
                if let v = p["maximumTouches"] { r.maximumNumberOfTouches = Int(v) }
                if let v = p["threshold"] { r.threshold = v }
                if let v = p["marginPoints"] { r.marginPoints = v }
                if let v = p["marginMillimetres"] { r.marginMillimetres = v }
                return r
            }
        }
    }

    // MARK: Keys more than one kind takes

    static func readButtonMask(_ spec: inout Scene.RecognizerSpec, _ value: JSONValue, _ path: String) throws {
        spec.buttonMaskRequired = try Scene.parseNames(value, path: path, names: [
            "primary": ButtonMask.primary, "secondary": .secondary, "tertiary": .tertiary])
    }

    static func readScrollTypes(_ spec: inout Scene.RecognizerSpec, _ value: JSONValue, _ path: String) throws {
        spec.allowedScrollTypes = try Scene.parseNames(value, path: path, names: [
            "continuous": ScrollTypes.continuous, "discrete": .discrete])
    }

    static func readPanDirection(_ spec: inout Scene.RecognizerSpec, _ value: JSONValue, _ path: String) throws {
        let names: [String: PanDirections] = ["horizontal": .horizontal, "vertical": .vertical, "all": .all]
        guard case let .string(name) = value else {
            throw SceneError(path: path, message: "expected one of all, horizontal, vertical, found \(value.typeDescription)")
        }
        guard let directions = names[name] else {
            throw SceneError(path: path, message: "unknown direction \"\(name)\" (expected one of all, horizontal, vertical)")
        }
        spec.panDirections = directions
    }

    static func readEdges(_ spec: inout Scene.RecognizerSpec, _ value: JSONValue, _ path: String) throws {
        if case let .string(name) = value {
            spec.edges = try Scene.parseNames(.array([.string(name)]), path: path, names: Scene.edgeNames)
        } else {
            spec.edges = try Scene.parseNames(value, path: path, names: Scene.edgeNames)
        }
    }

    /// A kind with a range of touches: its `maximumTouches` is at least its `minimumTouches`.
    static func checkTouchCounts(_ spec: Scene.RecognizerSpec, _ path: String) throws {
        if let minT = spec.parameters["minimumTouches"], let maxT = spec.parameters["maximumTouches"], minT > maxT {
            throw SceneError(path: "\(path).maximumTouches", message: "expected at least minimumTouches (\(jsonNumber(minT))), found \(jsonNumber(maxT))")
        }
    }
}

extension Scene {
    /// A state-machine diagram of a kind: its file's name (docs/diagrams/FILE.svg), its
    /// title, where its touches land, and the recognizer, set up as the title says.
    package struct KindDiagram {
        package var file: String
        package var title: String
        package var start = Point(x: 400, y: 400)
        package var make: () -> GestureRecognizer
    }
}
