import GestureKit
import GestureLayout

/// A scene made real: an engine with the scene's views and recognizers attached, and the
/// flow layout a pinch drives, if the scene has one.
public final class LiveScene {
    public let scene: Scene
    public let engine: GestureEngine
    /// Views in scene order.
    public let views: [(id: String, view: View)]
    /// Recognizers in scene order.
    public let recognizers: [(id: String, recognizer: GestureRecognizer)]
    public let layout: FlowLayout?
    /// The scroll view the layout scrolls in (the first root view), when the scene's layout
    /// has `scroll`.
    public private(set) var scrollView: ScrollView?
    /// The layout's items, by section: item ids in display order (ids count from 0 across
    /// sections, in the scene's order). Reordering moves them.
    public private(set) var items: [[Int]] = []
    /// The selected item ids.
    public private(set) var selectedItems: Set<Int> = []
    /// The item the last reorder moved.
    public private(set) var movedItem: Int?
    /// Called with the records the layout's gestures drive (`layout`, `select`, `move`), at
    /// the engine's time.
    public var onRecord: ((ReplayRecord) -> Void)?
    private var layoutDataSource: ItemCountsDataSource?
    /// Scene order of each recognizer, for `id(of:)` and `kind(of:)` in constant time (they
    /// run for every record a replay prints).
    private let sceneIndex: [ObjectIdentifier: Int]

    public init(_ scene: Scene) throws {
        self.scene = scene
        engine = GestureEngine()
        var views: [(id: String, view: View)] = []
        // A layout that scrolls lives in a scroll view: the first root view.
        let scrollingRoot = scene.layout?.scroll != nil ? scene.views.first { $0.parent == nil }?.id : nil
        for spec in scene.views {
            let view = spec.id == scrollingRoot ? ScrollView(id: spec.id, frame: spec.frame) : View(id: spec.id, frame: spec.frame)
            views.append((spec.id, view))
        }
        // Roots first, in order; children join their parent in scene order (later ones in front).
        for (spec, entry) in zip(scene.views, views) {
            if let parent = spec.parent, let p = views.first(where: { $0.id == parent }) {
                p.view.addSubview(entry.view)
            }
        }
        for (spec, entry) in zip(scene.views, views) where spec.parent == nil {
            engine.addRoot(entry.view)
        }
        self.views = views

        var recognizers: [(id: String, recognizer: GestureRecognizer)] = []
        for spec in scene.recognizers {
            let r = LiveScene.make(spec)
            r.cancelsTouchesInView = spec.cancelsTouchesInView
            r.delaysTouchesBegan = spec.delaysTouchesBegan
            r.delaysTouchesEnded = spec.delaysTouchesEnded
            r.isEnabled = spec.enabled
            if spec.kind != .hover { r.allowedTouchTypes = spec.allowedTouchTypes }
            views.first { $0.id == spec.view }?.view.addGestureRecognizer(r)
            recognizers.append((spec.id, r))
        }
        var byID: [String: GestureRecognizer] = [:]
        var sceneIndex: [ObjectIdentifier: Int] = [:]
        for (i, entry) in recognizers.enumerated() {
            byID[entry.id] = entry.recognizer
            sceneIndex[ObjectIdentifier(entry.recognizer)] = i
        }
        for (spec, entry) in zip(scene.recognizers, recognizers) {
            for other in spec.requireToFail {
                try entry.recognizer.require(toFail: byID[other]!)
            }
        }
        for pair in scene.simultaneous {
            byID[pair[0]]!.recognizeSimultaneously(with: byID[pair[1]]!)
        }
        self.recognizers = recognizers
        self.sceneIndex = sceneIndex

        if let spec = scene.layout {
            let bounds = views.first { v in scene.views.contains { $0.id == v.id && $0.parent == nil } }?.view.frame.size ?? scene.screen
            let counts = ItemCountsDataSource(spec.sections)
            layoutDataSource = counts
            let layout = FlowLayout(dataSource: counts, boundsSize: bounds)
            layout.itemSize = spec.itemSize
            layout.minimumLineSpacing = spec.minimumLineSpacing
            layout.minimumInteritemSpacing = spec.minimumInteritemSpacing
            layout.sectionInset = spec.sectionInset
            layout.headerReferenceSize = spec.headerReferenceSize
            layout.footerReferenceSize = spec.footerReferenceSize
            self.layout = layout
            var next = 0
            items = spec.sections.map { count in
                defer { next += count }
                return Array(next..<next + count)
            }
            let container = views.first { v in scene.views.contains { $0.id == v.id && $0.parent == nil } }?.view
            if let scrollID = spec.scroll, let scrollView = container as? ScrollView,
               let pan = recognizers.first(where: { $0.id == scrollID })?.recognizer as? PanGestureRecognizer {
                self.scrollView = scrollView
                scrollView.contentSize = layout.contentSize
                scrollView.bounces = spec.bounces
                scrollView.decelerationRate = DecelerationRate(rawValue: spec.decelerationRate)
                scrollView.frameRate = spec.frameRate
                scrollView.isPagingEnabled = spec.pagingEnabled
                scrollView.delaysContentTouches = spec.delaysContentTouches
                scrollView.alwaysBounceVertical = spec.alwaysBounceVertical
                scrollView.contentOffset = scrollView.clampedContentOffset(spec.contentOffset)
                scrollView.replaceScrollingPan(with: pan)
                scrollView.onScroll = { [unowned self] s in
                    self.onRecord?(.scroll(time: self.engine.now, contentOffset: s.contentOffset,
                                           velocity: s.scrollVelocity, phase: s.scrollPhase))
                }
            }
            if let pinchID = spec.pinch, let pinch = recognizers.first(where: { $0.id == pinchID })?.recognizer as? PinchGestureRecognizer {
                var itemSizeAtBegan = spec.itemSize
                pinch.addTarget { [unowned self, unowned layout] r in
                    guard let pinch = r as? PinchGestureRecognizer else { return }
                    switch pinch.state {
                    case .began:
                        itemSizeAtBegan = layout.itemSize
                    case .changed:
                        // Always from the size at began: successive scales are never multiplied.
                        layout.itemSize = itemSizeAtBegan * pinch.scale
                        layout.invalidateLayout(with: .metrics)
                        self.scrollView?.contentSize = layout.contentSize
                        self.onRecord?(.layout(time: self.engine.now, itemSize: layout.itemSize, contentSize: layout.contentSize))
                    default:
                        break
                    }
                }
            }
            // The container holds these recognizers (and so their targets): a target holds it
            // weakly, or the scene's views and recognizers would keep each other alive.
            if let selectID = spec.select, let tap = recognizers.first(where: { $0.id == selectID })?.recognizer {
                tap.addTarget { [unowned self, unowned layout, weak container] r in
                    guard r.state == .ended, let at = layout.indexPathForItem(at: r.location(in: container)) else { return }
                    let id = self.items[at.section][at.item]
                    self.selectedItems = [id]
                    self.onRecord?(.select(time: self.engine.now, section: at.section, item: at.item, id: id))
                }
            }
            if let reorderID = spec.reorder, let press = recognizers.first(where: { $0.id == reorderID })?.recognizer {
                var from: LayoutIndexPath?
                press.addTarget { [unowned self, unowned layout, weak container] r in
                    let point = r.location(in: container)
                    switch r.state {
                    case .began:
                        from = layout.indexPathForItem(at: point)
                    case .ended:
                        guard let source = from,
                              let target = layout.targetIndexPathForInteractivelyMovingItem(source, withPosition: point) else { return }
                        from = nil
                        let id = self.items[source.section].remove(at: source.item)
                        let item = min(target.item, self.items[target.section].count)
                        self.items[target.section].insert(id, at: item)
                        if source.section != target.section {
                            self.layoutCountsChanged(layout)
                        }
                        self.movedItem = id
                        self.onRecord?(.move(time: self.engine.now, from: [source.section, source.item],
                                             to: [target.section, item], id: id))
                    case .cancelled, .failed:
                        from = nil
                    default:
                        break
                    }
                }
            }
        } else {
            self.layout = nil
        }
    }

    /// A move between sections changes two sections' counts: the layout re-reads them.
    private func layoutCountsChanged(_ layout: FlowLayout) {
        if let source = layoutDataSource { source.itemCounts = items.map(\.count) }
        layout.invalidateLayout(with: .dataSourceCounts)
        scrollView?.contentSize = layout.contentSize
    }

    /// Whether `recognizer` is one the framework added (a scroll view's content-touch
    /// recognizer): the replay does not print its transitions.
    public func isInternal(_ recognizer: GestureRecognizer) -> Bool {
        recognizer is ScrollViewContentTouchRecognizer
    }

    static func make(_ spec: Scene.RecognizerSpec) -> GestureRecognizer {
        let p = spec.parameters
        switch spec.kind {
        case .tap:
            let r = TapGestureRecognizer(taps: Int(p["taps"] ?? 1), touches: Int(p["touches"] ?? 1), name: spec.id)
            if let v = p["allowableMovement"] { r.allowableMovement = v }
            if let v = p["maximumTapDuration"] { r.maximumTapDuration = Duration(seconds: v) }
            if let v = p["maximumTapInterval"] { r.maximumTapInterval = Duration(seconds: v) }
            if let v = p["maximumTapDistance"] { r.maximumTapDistance = v }
            return r
        case .longPress:
            let r = LongPressGestureRecognizer(
                minimumPressDuration: p["minimumPressDuration"].map(Duration.init(seconds:)) ?? GestureDefaults.minimumPressDuration,
                touches: Int(p["touches"] ?? 1), name: spec.id)
            if let v = p["allowableMovement"] { r.allowableMovement = v }
            if let v = p["taps"] { r.numberOfTapsRequired = Int(v) }
            return r
        case .pinch:
            let r = PinchGestureRecognizer(name: spec.id)
            if let v = p["threshold"] { r.spanThreshold = v }
            return r
        case .pan:
            let r = PanGestureRecognizer(minimumTouches: Int(p["minimumTouches"] ?? 1),
                                         maximumTouches: p["maximumTouches"].map { Int($0) } ?? .max, name: spec.id)
            if let v = p["threshold"] { r.threshold = v }
            r.allowedScrollTypes = spec.allowedScrollTypes
            r.allowedDirections = spec.panDirections
            return r
        case .rotation:
            let r = RotationGestureRecognizer(name: spec.id)
            if let v = p["threshold"] { r.threshold = v }
            return r
        case .swipe:
            let r = SwipeGestureRecognizer(direction: spec.direction, touches: Int(p["touches"] ?? 1), name: spec.id)
            if let v = p["minimumDistance"] { r.minimumDistance = v }
            if let v = p["maximumDuration"] { r.maximumDuration = Duration(seconds: v) }
            return r
        case .hover:
            return HoverGestureRecognizer(name: spec.id)
        case .screenEdgePan:
            let r = ScreenEdgePanGestureRecognizer(edges: spec.edges, name: spec.id)
            if let v = p["minimumTouches"] { r.minimumNumberOfTouches = Int(v) }
            if let v = p["maximumTouches"] { r.maximumNumberOfTouches = Int(v) }
            if let v = p["threshold"] { r.threshold = v }
            if let v = p["marginPoints"] { r.marginPoints = v }
            if let v = p["marginMillimetres"] { r.marginMillimetres = v }
            return r
        }
    }

    /// The scene id of a recognizer.
    public func id(of recognizer: GestureRecognizer) -> String {
        sceneIndex[ObjectIdentifier(recognizer)].map { recognizers[$0].id } ?? recognizer.name
    }

    /// The scene kind of a recognizer.
    public func kind(of recognizer: GestureRecognizer) -> Scene.Kind? {
        sceneIndex[ObjectIdentifier(recognizer)].map { scene.recognizers[$0].kind }
    }
}
