import GestureKit
import GestureLayout

/// A scene made real: an engine with the scene's views and recognizers attached, and, when
/// the scene has a `layout`, a `CollectionView` (GestureLayout's, the one apps get) as its first
/// root view, whose own pinch-to-resize, interactive movement, selection and scrolling the
/// scene's recognizers drive.
public final class LiveScene {
    public let scene: Scene
    public let engine: GestureEngine
    /// Views in scene order.
    public let views: [(id: String, view: View)]
    /// Recognizers in scene order.
    public let recognizers: [(id: String, recognizer: GestureRecognizer)]
    /// The scene's layout: the first root view, a collection view with a flow layout.
    public let collectionView: CollectionView?
    /// The collection view's flow layout.
    public var layout: FlowLayout? { collectionView?.layout as? FlowLayout }
    /// The collection view, when the scene's layout scrolls (`scroll`).
    public private(set) var scrollView: ScrollView?
    /// The layout's items, by section: item ids in display order (ids count from 0 across
    /// sections, in the scene's order). Reordering moves them.
    public var items: [[Int]] { sceneItems?.items ?? [] }
    /// The selected item ids (the collection view's selection).
    public var selectedItems: Set<Int> {
        guard let collectionView, let sceneItems else { return [] }
        return Set(collectionView.indexPathsForSelectedItems.map { sceneItems.items[$0.section][$0.item] })
    }
    /// The item the last reorder moved.
    public var movedItem: Int? { sceneItems?.movedItem }
    /// Called with the records the layout's gestures drive (`layout`, `select`, `move`,
    /// `scroll`), at the engine's time.
    public var onRecord: ((ReplayRecord) -> Void)?
    private var sceneItems: SceneItems?
    /// Scene order of each recognizer, for `id(of:)` and `kind(of:)` in constant time (they
    /// run for every record a replay prints).
    private let sceneIndex: [ObjectIdentifier: Int]
    /// The scene's context menus (their delegates, which hold their interactions).
    private let menus: [SceneMenuDelegate]
    /// The scene's context menu interactions, in scene order.
    public var contextMenuInteractions: [ContextMenuInteraction] { menus.map(\.interaction) }

    public init(_ scene: Scene) throws {
        self.scene = scene
        engine = GestureEngine()
        var views: [(id: String, view: View)] = []
        // A layout lives in a collection view: the first root view.
        let layoutRoot = scene.layout != nil ? scene.views.first { $0.parent == nil }?.id : nil
        var collectionView: CollectionView?
        for spec in scene.views {
            if spec.id == layoutRoot, let layoutSpec = scene.layout {
                let flow = FlowLayout(dataSource: nil, boundsSize: spec.frame.size)
                flow.itemSize = layoutSpec.itemSize
                flow.minimumLineSpacing = layoutSpec.minimumLineSpacing
                flow.minimumInteritemSpacing = layoutSpec.minimumInteritemSpacing
                flow.sectionInset = layoutSpec.sectionInset
                flow.headerReferenceSize = layoutSpec.headerReferenceSize
                flow.footerReferenceSize = layoutSpec.footerReferenceSize
                let view = CollectionView(id: spec.id, frame: spec.frame, layout: flow)
                collectionView = view
                views.append((spec.id, view))
            } else {
                views.append((spec.id, View(id: spec.id, frame: spec.frame)))
            }
        }
        self.collectionView = collectionView
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
        var menus: [SceneMenuDelegate] = []
        for spec in scene.recognizers {
            let r: GestureRecognizer
            if spec.kind == .contextMenu {
                // The interaction brings its recognizer; the scene keeps the interaction's delegate.
                let menu = SceneMenuDelegate(spec)
                menus.append(menu)
                views.first { $0.id == spec.view }?.view.addInteraction(menu.interaction)
                r = menu.interaction.gestureRecognizer
            } else {
                r = LiveScene.make(spec)
            }
            r.cancelsTouchesInView = spec.cancelsTouchesInView
            r.delaysTouchesBegan = spec.delaysTouchesBegan
            r.delaysTouchesEnded = spec.delaysTouchesEnded
            r.isEnabled = spec.enabled
            if spec.kind != .hover { r.allowedTouchTypes = spec.allowedTouchTypes }
            if let tap = r as? TapGestureRecognizer { tap.buttonMaskRequired = spec.buttonMaskRequired }
            if let press = r as? LongPressGestureRecognizer { press.buttonMaskRequired = spec.buttonMaskRequired }
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
                entry.recognizer.require(toFail: byID[other]!)
            }
        }
        for pair in scene.simultaneous {
            byID[pair[0]]!.recognizeSimultaneously(with: byID[pair[1]]!)
        }
        self.recognizers = recognizers
        self.sceneIndex = sceneIndex
        self.menus = menus

        if let spec = scene.layout, let collectionView { setUpLayout(spec, in: collectionView, byID: byID) }
        for spec in scene.interactions {
            guard let view = views.first(where: { $0.id == spec.view })?.view else { continue }
            switch spec.kind {
            case .drag:
                let source = SceneDragSource(spec)
                let drag = DragInteraction(delegate: source)
                drag.liftDelay = .nanoseconds(Int64((spec.liftDelay * 1e9).rounded()))
                drag.isEnabled = spec.enabled
                view.addInteraction(drag)
                interactionDelegates.append(source)
                addItemsRecognizers.insert(ObjectIdentifier(drag.addItemsRecognizer))
            case .drop:
                let target = SceneDropTarget(spec, now: { [unowned self] in engine.now },
                                             report: { [unowned self] in onRecord?($0) })
                let drop = DropInteraction(delegate: target)
                drop.isEnabled = spec.enabled
                view.addInteraction(drop)
                interactionDelegates.append(target)
            }
        }
    }

    /// The delegates of the scene's interactions (which hold them weakly).
    private var interactionDelegates: [AnyObject] = []
    /// The drag interactions' add-items taps, whose transitions the replay does not print
    /// (a `drag` line with `added` says what one did).
    private var addItemsRecognizers: Set<ObjectIdentifier> = []

    /// The scene's layout on its collection view: items and cells, scrolling (or none),
    /// and the recognizers the layout names driving the collection view's own patterns.
    private func setUpLayout(_ spec: Scene.LayoutSpec, in collectionView: CollectionView,
                             byID: [String: GestureRecognizer]) {
        let items = SceneItems(sections: spec.sections, now: { [unowned self] in engine.now },
                               record: { [unowned self] in onRecord?($0) })
        sceneItems = items
        collectionView.register({ SceneItemCell() }, forCellWithReuseIdentifier: SceneItems.cellIdentifier)
        collectionView.dataSource = items
        collectionView.delegate = items
        if let scrollID = spec.scroll, let pan = byID[scrollID] as? PanGestureRecognizer {
            scrollView = collectionView
            collectionView.bounces = spec.bounces
            collectionView.decelerationRate = DecelerationRate(rawValue: spec.decelerationRate)
            collectionView.frameRate = spec.frameRate
            collectionView.isPagingEnabled = spec.pagingEnabled
            collectionView.delaysContentTouches = spec.delaysContentTouches
            collectionView.alwaysBounceVertical = spec.alwaysBounceVertical
            collectionView.contentOffset = collectionView.clampedContentOffset(spec.contentOffset)
            collectionView.replaceScrollingPan(with: pan)
            collectionView.minimumZoomScale = spec.minimumZoomScale
            collectionView.maximumZoomScale = spec.maximumZoomScale
            collectionView.onScroll = { [unowned self, items] s in
                // While the scale changes, the offset it moves is on the `zoom` line.
                guard !items.zoomUnderWay else { return }
                onRecord?(.scroll(time: engine.now, contentOffset: s.contentOffset,
                                  velocity: s.scrollVelocity, phase: s.scrollPhase))
            }
        } else {
            // A layout that does not scroll: the collection view's own pan stays off, and
            // touches reach the content at once.
            collectionView.isScrollEnabled = false
            collectionView.delaysContentTouches = false
        }
        if let pinchID = spec.pinch, let pinch = byID[pinchID] as? PinchGestureRecognizer {
            collectionView.installPinchToResize(on: pinch) { [unowned self] itemSize, contentSize in
                onRecord?(.layout(time: engine.now, itemSize: itemSize, contentSize: contentSize))
            }
        }
        // A tap recognizer that selects: the item under it, through the collection view's
        // selection, as an app with a tap recognizer on a collection view does.
        if let selectID = spec.select, let tap = byID[selectID] {
            tap.addTarget { [weak items, weak collectionView] r in
                guard r.state == .ended, let items, let collectionView,
                      let at = collectionView.indexPathForItem(at: r.location(in: collectionView)) else { return }
                collectionView.selectItem(at: at)
                items.selected(at)
            }
        }
        if let reorderID = spec.reorder, let press = byID[reorderID] {
            collectionView.installInteractiveMovement(on: press)
        }
    }

    /// Whether `recognizer` is one the framework added (a scroll view's content-touch
    /// recognizer, a zooming layout's own pinch, whose `zoom` lines say what it did): the
    /// replay does not print its transitions.
    public func isInternal(_ recognizer: GestureRecognizer) -> Bool {
        recognizer is ScrollViewContentTouchRecognizer || (scrollView != nil && recognizer === scrollView?.pinchGestureRecognizer)
            || addItemsRecognizers.contains(ObjectIdentifier(recognizer))
    }

    /// The recognizer a spec describes (its kind's `Scene.Kind.Format.make`).
    static func make(_ spec: Scene.RecognizerSpec) -> GestureRecognizer {
        spec.kind.format.make(spec)
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
