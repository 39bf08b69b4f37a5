import Foundation
import Testing
import Logging
import GestureKit
import GestureLayout
import GestureTestSupport

/// Every point where GestureKit and GestureLayout call code of the app's, in one place: the
/// delegates, target actions, the overridable methods of views, recognizers, layouts and
/// cells, data sources, scroll and collection delegates, display links, the trace handler and
/// the logger, the context menu's and drag and drop's delegates, menu actions, the menu's
/// presenter and item providers' loaders. Each names the part of the script (`Segment`) that
/// reaches it.
///
/// Not here: GestureGTK's `GTKGestureRecognizer`, whose GTK signal handlers run only under a
/// GTK main loop (its own tests, under sway and Xvfb).
///
/// The rule they are checked against is the engine's (EngineStorage.swift) and the collection
/// view's (CollectionView.swift): no access to the library's state is held across a call into
/// app code, so app code may call any public API from any of them.
enum CallbackPoint: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    // GestureKit: recognizers and their delegates
    /// A recognizer's action (`addTarget`).
    case targetAction
    /// `GestureRecognizerDelegate.gestureRecognizerShouldBegin(_:)`.
    case delegateShouldBegin
    /// `gestureRecognizer(_:shouldReceive:)`.
    case delegateShouldReceive
    /// `gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)`.
    case delegateSimultaneous
    /// `gestureRecognizer(_:shouldRequireFailureOf:)` and `shouldBeRequiredToFailBy`.
    case delegateRequireFailure
    /// A subclass of a built-in recognizer: `canPrevent`, `canBePrevented`,
    /// `shouldRequireFailure(of:)`, `shouldBeRequiredToFail(by:)`, and its UIKit-shaped
    /// `touchesBegan/Moved/Ended(_:with:)`, which call `super`.
    case recognizerOverrides
    /// A recognizer of the app's own: UIKit's `touchesBegan/Moved/Ended/Cancelled(_:with:)`.
    case recognizerTouches
    /// Its `deadline` (read after every call) and `deadlineReached(at:)`.
    case recognizerDeadline
    /// Its `reset()`.
    case recognizerReset
    /// Its `understands(_:)` and `touchpadGesture(_:)`.
    case recognizerTouchpad
    // GestureKit: views, the engine's clock and its listeners
    /// `View.gestureRecognizerShouldBegin(_:)`.
    case viewShouldBegin
    /// `View.touchesBegan/Moved/Ended/Cancelled(_:with:)`.
    case viewTouches
    /// `View.onTouches`.
    case viewOnTouches
    /// `View.hitTest(_:)` and `point(inside:)`.
    case viewHitTest
    /// `View.layoutSubviews()`, in the engine's layout pass.
    case viewLayoutSubviews
    /// A display link's callback.
    case displayLink
    /// The engine's `traceHandler` (through the tester's).
    case traceHandler
    /// The engine's logger's handler, at debug level.
    case logHandler
    // GestureLayout: layouts
    /// `CollectionViewLayout.prepare()`.
    case layoutPrepare
    /// `layoutAttributesForElements(in:)`.
    case layoutAttributes
    /// `collectionViewContentSize`, `layoutAttributesForItem(at:)`,
    /// `shouldInvalidateLayout(forBoundsChange:)`.
    case layoutQueries
    // GestureLayout: the data source and cells
    /// `numberOfSections(in:)`, `collectionView(_:numberOfItemsInSection:)`.
    case dataSourceCounts
    /// `collectionView(_:cellForItemAt:)`.
    case dataSourceCell
    /// `collectionView(_:viewForSupplementaryElementOfKind:at:)`.
    case dataSourceSupplementary
    /// The closure given to `register(_:forCellWithReuseIdentifier:)`.
    case cellFactory
    /// `CollectionReusableView.apply(_:)`.
    case cellApply
    /// `CollectionReusableView.prepareForReuse()`.
    case cellPrepareForReuse
    /// A cell's `touchesBegan/Moved/Ended/Cancelled(_:with:)` (which passes them on).
    case cellTouches
    // GestureLayout: collection and scroll delegates
    /// `shouldHighlightItemAt`, `didHighlightItemAt`, `didUnhighlightItemAt`.
    case collectionHighlight
    /// `shouldSelectItemAt`, `didSelectItemAt`, `shouldDeselectItemAt`, `didDeselectItemAt`.
    case collectionSelect
    /// `canMoveItemAt`, `moveItemAt`, `targetIndexPathForMoveOfItemFromOriginalIndexPath`, the
    /// layout's `targetIndexPathForInteractivelyMovingItem`.
    case collectionMovement
    /// `scrollViewDidScroll(_:)`.
    case scrollDidScroll
    /// `scrollViewWillBeginDragging`, `scrollViewWillEndDragging`, `scrollViewDidEndDragging`.
    case scrollDragging
    /// `scrollViewDidEndDecelerating`, `scrollViewDidEndScrollingAnimation`.
    case scrollDecelerating
    /// `viewForZooming(in:)`, `scrollViewWillBeginZooming`, `scrollViewDidZoom`,
    /// `scrollViewDidEndZooming`.
    case scrollZooming
    /// `ScrollView.onScroll`.
    case scrollOnScroll
    /// `installPinchToResize`'s `onLayoutChange`.
    case pinchToResizeLayoutChange
    // GestureKit: context menus (the `contextMenu` segment)
    /// `ContextMenuInteractionDelegate.contextMenuInteraction(_:configurationForMenuAtLocation:)`,
    /// by each of the trigger's paths: from the recognizer's deadline as the preview lifts (a
    /// touch held), from its `touchesBegan` (a secondary click), from
    /// `GestureEngine.sendMenuKey(at:focusedView:)` (the menu key).
    case contextMenuConfiguration
    /// The configuration's `actionProvider`, as the menu opens.
    case contextMenuActionProvider
    /// `contextMenuInteraction(_:willDisplayMenuFor:)`.
    case contextMenuWillDisplay
    /// `contextMenuInteraction(_:willEndFor:)`: an action chosen, the menu dismissed.
    case contextMenuWillEnd
    /// The engine's `contextMenuPresenter`: `present(_:)` and `dismiss(_:)`.
    case contextMenuPresenter
    /// A `MenuAction`'s handler, when the action is chosen.
    case menuActionHandler
    // GestureKit: drag and drop (the `dragAndDrop` segment)
    /// `DragInteractionDelegate.dragInteraction(_:itemsForBeginning:)`, from the lift
    /// recognizer's deadline.
    case dragItemsForBeginning
    /// `dragInteraction(_:sessionAllowsMoveOperation:)` and `sessionWillBegin`, from the lift
    /// recognizer's action.
    case dragWillBegin
    /// `dragInteraction(_:sessionDidMove:)`: where to draw the drag's preview.
    case dragDidMove
    /// `dragInteraction(_:itemsForAddingTo:withTouchAt:)` (asked as a tap on another drag
    /// interaction's view is about to recognize) and `session(_:willAdd:)`.
    case dragItemsForAdding
    /// `dragInteraction(_:session:willEndWith:)` and `didEndWith`.
    case dragEnd
    /// `DropInteractionDelegate.dropInteraction(_:canHandle:)`, in the search for a target.
    case dropCanHandle
    /// `dropInteraction(_:sessionDidEnter:)` and `sessionDidExit`.
    case dropEnterExit
    /// `dropInteraction(_:sessionDidUpdate:)`: the proposal.
    case dropUpdate
    /// `dropInteraction(_:performDrop:)`.
    case dropPerform
    /// `dropInteraction(_:concludeDrop:)` and `sessionDidEnd`.
    case dropEnd
    /// An `ItemProvider`'s loader (`registerDataRepresentation(for:loader:)`) and the
    /// completion `loadData(for:completion:)` calls, as the drop target loads the items.
    case itemProviderLoader

    var testDescription: String { rawValue }

    /// The parts of the script that reach this point.
    var segments: [Segment] {
        switch self {
        case .targetAction, .delegateShouldBegin, .delegateRequireFailure, .viewShouldBegin,
             .viewTouches, .viewOnTouches, .recognizerTouches:
            [.photoTap, .photoPan]
        // The trace of a menu and of a drag is emitted from inside the interactions' code; the
        // search for a drop target hit-tests the photo.
        case .traceHandler: [.photoTap, .photoPan, .contextMenu, .dragAndDrop]
        case .logHandler: [.photoTap, .contextMenu, .dragAndDrop]
        case .viewHitTest: [.photoTap, .dragAndDrop]
        case .delegateShouldReceive, .recognizerReset, .viewLayoutSubviews:
            [.photoTap]
        case .delegateSimultaneous, .recognizerOverrides: [.photoPan, .photoPinch]
        case .recognizerDeadline: [.photoPress]
        case .recognizerTouchpad: [.touchpadPinch]
        case .displayLink: [.displayLink]
        case .layoutPrepare: [.collectionPinch]
        case .dataSourceCounts: [.collectionReorder]
        case .layoutAttributes, .layoutQueries, .dataSourceCell, .dataSourceSupplementary, .cellFactory,
             .cellApply, .cellPrepareForReuse:
            [.collectionScroll, .collectionPinch]
        case .cellTouches, .collectionHighlight, .collectionSelect: [.collectionTap]
        case .collectionMovement: [.collectionReorder]
        case .scrollDidScroll, .scrollDragging, .scrollDecelerating, .scrollOnScroll: [.collectionScroll]
        case .scrollZooming: [.zoom]
        case .pinchToResizeLayoutChange: [.collectionPinch]
        case .contextMenuConfiguration, .contextMenuActionProvider, .contextMenuWillDisplay, .contextMenuWillEnd,
             .contextMenuPresenter, .menuActionHandler:
            [.contextMenu]
        case .dragItemsForBeginning, .dragWillBegin, .dragDidMove, .dragItemsForAdding, .dragEnd, .dropCanHandle,
             .dropEnterExit, .dropUpdate, .dropPerform, .dropEnd, .itemProviderLoader:
            [.dragAndDrop]
        }
    }

    /// Whether the script reaches this point in the middle of one of the collection view's
    /// layout passes, where `reloadData()` stops with a precondition (CollectionView.swift):
    /// the layout's `layoutAttributesForElements(in:)`, the data source's cells and headers,
    /// the cells' own methods. (The layout's `prepare()` and its other queries, and the data
    /// source's counts, run before a pass here: a flow layout prepares when the collection view
    /// clamps its offset to the content, and reads its counts there.)
    var isReachedDuringALayoutPass: Bool {
        switch self {
        case .layoutAttributes, .dataSourceCell, .dataSourceSupplementary, .cellFactory, .cellApply,
             .cellPrepareForReuse:
            true
        default:
            false
        }
    }
}

/// Every public API that reads or changes the state of the engine, a recognizer, a view, an
/// interaction, a scroll view, a layout or a collection view: what app code may call from a
/// callback.
enum StateAPI: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    /// Every recognizer's `state`, `numberOfTouches`, `location(in:)`, `location(ofTouch:in:)`,
    /// `view`, `modifierFlags`, `isEnabled`, a pan's translation and velocity, a pinch's scale.
    case readRecognizers
    /// The engine's `now`, `nextDeadline`, `pointerLocation`, `roots`, `hitTest(_:)`.
    case readEngine
    /// Every view's frame, bounds, subviews and recognizers, a conversion, `hitTest(_:)`.
    case readViews
    /// The collection view's visible items, cells and headers, `contentOffset`,
    /// `contentSize`, selection, `indexPathForItem(at:)`, `layoutAttributesForItem(at:)`,
    /// counts, the scroll and zoom state; the layout's `collectionViewContentSize`.
    case readCollection
    /// `isEnabled` off and on again (the pan, the collection view's scrolling pan).
    case isEnabled
    /// `require(toFail:)`.
    case requireToFail
    /// `addGestureRecognizer(_:)`, on the photo and the collection view.
    case addGestureRecognizer
    /// `removeGestureRecognizer(_:)`: the pinch, then the tap.
    case removeGestureRecognizer
    /// `removeFromSuperview()`: the photo, then the collection view.
    case removeFromSuperview
    /// `addSubview(_:)`, to the photo and to the collection view.
    case addSubview
    /// `setNeedsLayout()`.
    case setNeedsLayout
    /// `layoutIfNeeded()`.
    case layoutIfNeeded
    /// `CollectionView.reloadData()`.
    case reloadData
    /// `setContentOffset(_:animated:)` and `contentOffset`.
    case setContentOffset
    /// `invalidateLayout()` and a new `itemSize`.
    case invalidateLayout
    /// `selectItem(at:)`.
    case selectItem
    /// `zoomScale`.
    case setZoomScale
    /// `GestureEngine.send(_:)`: a tap elsewhere.
    case send
    /// `GestureEngine.advance(to:)`.
    case advance
    /// `GestureEngine.finish()`.
    case finish
    /// `addDisplayLink(_:)` and its `isPaused`.
    case addDisplayLink
    /// A recognizer of the app's own sets its `state`.
    case setState
    /// `addInteraction(_:)`: a context menu on the photo and a drag interaction on the tray;
    /// the second time, the card's context menu added to the photo (which takes it from the
    /// card).
    case addInteraction
    /// `removeInteraction(_:)`: the card's context menu and the tray's drop interaction (a
    /// menu presented is dismissed, a drag over the tray exits it), then the note's drag
    /// interaction (its drag is cancelled).
    case removeInteraction
    /// Every view's `interactions`; the context menu's `state`, `presentedMenu`,
    /// `location(in:)` and its recognizer's; the engine's `presentedContextMenu`; the drag's
    /// and drop's `isEnabled` and `liftDelay`; the drag session's items, `location(in:)`,
    /// `operation`, `target`, `outcome`, `contentTypes`, and its items' data
    /// (`loadData(for:completion:)`).
    case readInteractions
    /// `isEnabled` off and on again: the drag and drop interactions, the context menu's
    /// recognizer.
    case interactionsEnabled
    /// The presented menu's `chooseAction(_:)`, then `dismissMenu()`.
    case closeMenu
    /// `GestureEngine.sendMenuKey(at:focusedView:)` on the card.
    case sendMenuKey

    var testDescription: String { rawValue }
}

/// A part of the script: one gesture, or time for animations to run.
enum Segment {
    case photoTap, photoPan, photoPinch, photoPress, touchpadPinch, displayLink
    case collectionTap, collectionScroll, collectionPinch, collectionReorder, zoom
    /// A touch held on the card opens its menu and Copy is chosen; a secondary click opens it
    /// and it is dismissed; the menu key opens it and Paste is chosen.
    case contextMenu
    /// A touch held on the note lifts its item, drags it over the tray, out and back, while a
    /// second touch taps the stamp (adding its item), and drops both on the tray, which loads
    /// their data.
    case dragAndDrop
}

/// A scene with something at every callback point: a photo with a pan, a pinch, a tap, a long
/// press and a recognizer of the app's own, all with one delegate; a zooming scroll view; a
/// collection view with a flow layout of its own, a data source and delegate, cells, headers,
/// pinch-to-resize and reordering; a card with a context menu (and the app's presenter), two
/// drag sources (the note, the stamp) and a drop target (the tray). One point calls one API, the first two times it is
/// reached (more would compound: a tap sent from every trace event never ends).
final class CallbackScene {
    let point: CallbackPoint
    let api: StateAPI
    /// Times the point was reached, and times it called the API.
    private(set) var reached = 0
    private(set) var called = 0
    /// Whether callbacks count: not while the scene is built.
    private var armed = false
    private var calling = false

    let h: Harness
    var engine: GestureEngine { h.engine }
    let photo: HookView
    let pan: HookPan
    let pinch = PinchGestureRecognizer(name: "pinch")
    let tap = TapGestureRecognizer(name: "tap")
    let press = LongPressGestureRecognizer(name: "press")
    let custom: HookRecognizer
    let delegate: HookDelegate
    let zoomer: ScrollView
    let zoomContent = View(id: "zoomContent", frame: Rect(x: 0, y: 0, width: 400, height: 400))
    let scrollDelegate: HookScrollDelegate
    let layout: HookFlowLayout
    let collection: CollectionView
    let source: HookSource
    let card = View(id: "card", frame: Rect(x: 0, y: 410, width: 120, height: 80))
    let note = View(id: "note", frame: Rect(x: 140, y: 410, width: 120, height: 80))
    let stamp = View(id: "stamp", frame: Rect(x: 280, y: 410, width: 120, height: 80))
    let tray = View(id: "tray", frame: Rect(x: 0, y: 910, width: 400, height: 80))
    let menuDelegate: HookMenuDelegate
    let cardMenu: ContextMenuInteraction
    let dragDelegate: HookDragDelegate
    let noteDrag: DragInteraction
    let stampDrag: DragInteraction
    let dropDelegate: HookDropDelegate
    let trayDrop: DropInteraction
    /// The drag session the app was last given, as an app keeps it.
    var session: DragSession?
    /// The scene's own display link (the `displayLink` segment runs it for a few frames).
    private var link: DisplayLink?
    private var linkFrames = 0
    /// The script's clock, seconds.
    private var t = 0.0

    init(_ point: CallbackPoint, _ api: StateAPI) {
        self.point = point
        self.api = api
        h = Harness()
        photo = HookView(id: "photo", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        pan = HookPan(name: "pan")
        custom = HookRecognizer(name: "custom")
        delegate = HookDelegate()
        zoomer = ScrollView(id: "zoomer", frame: Rect(x: 0, y: 500, width: 400, height: 400))
        scrollDelegate = HookScrollDelegate()
        layout = HookFlowLayout(dataSource: nil, boundsSize: Size(width: 400, height: 1000))
        layout.itemSize = Size(width: 100, height: 100)
        layout.headerReferenceSize = Size(width: 400, height: 30)
        collection = CollectionView(id: "collection", frame: Rect(x: 500, y: 0, width: 400, height: 1000), layout: layout)
        source = HookSource()
        menuDelegate = HookMenuDelegate()
        cardMenu = ContextMenuInteraction(delegate: menuDelegate, name: "cardMenu")
        dragDelegate = HookDragDelegate()
        noteDrag = DragInteraction(delegate: dragDelegate)
        stampDrag = DragInteraction(delegate: dragDelegate)
        dropDelegate = HookDropDelegate()
        trayDrop = DropInteraction(delegate: dropDelegate)

        photo.scene = self
        menuDelegate.scene = self
        dragDelegate.scene = self
        dropDelegate.scene = self
        pan.scene = self
        custom.scene = self
        delegate.scene = self
        scrollDelegate.scene = self
        layout.scene = self
        source.scene = self
        h.root.addSubview(photo)
        for r in [pan, pinch, tap, press, custom] as [GestureRecognizer] {
            r.delegate = delegate
            r.addTarget { [unowned self] _ in hit(.targetAction) }
            photo.addGestureRecognizer(r)
        }
        // The scene's own plumbing: the tap asks for a layout, laid out at the end of its step.
        tap.addTarget { [unowned self] _ in photo.setNeedsLayout() }
        photo.onTouches = { [unowned self] _, _, _ in hit(.viewOnTouches) }

        zoomer.addSubview(zoomContent)
        zoomer.contentSize = Size(width: 400, height: 400)
        zoomer.minimumZoomScale = 1
        zoomer.maximumZoomScale = 3
        zoomer.delegate = scrollDelegate
        scrollDelegate.zoomed = zoomContent
        h.root.addSubview(zoomer)

        collection.register({ [unowned self] in
            hit(.cellFactory)
            let cell = HookCell()
            cell.scene = self
            return cell
        }, forCellWithReuseIdentifier: "cell")
        collection.register({ TitleView(id: "header") }, forSupplementaryViewOfKind: LayoutElementKind.sectionHeader,
                            withReuseIdentifier: "header")
        collection.dataSource = source
        collection.delegate = source
        collection.onScroll = { [unowned self] _ in hit(.scrollOnScroll) }
        collection.installPinchToResize { [unowned self] _, _ in hit(.pinchToResizeLayoutChange) }
        collection.installInteractiveMovementGesture(minimumPressDuration: .milliseconds(500), name: "reorder")
        h.root.addSubview(collection)

        card.addInteraction(cardMenu)
        engine.contextMenuPresenter = menuDelegate
        note.addInteraction(noteDrag)
        stamp.addInteraction(stampDrag)
        tray.addInteraction(trayDrop)
        for v in [card, note, stamp, tray] { h.root.addSubview(v) }

        h.tester.traceHandler = { [unowned self] _ in hit(.traceHandler) }
        let handler = HookLogHandler(scene: self)
        var logger = Logger(label: "matrix") { _ in handler }
        logger.logLevel = .debug
        engine.logger = logger
        link = engine.addDisplayLink { [unowned self] link in
            hit(.displayLink)
            linkFrames += 1
            if linkFrames >= 3 { link.isPaused = true }
        }
        armed = true
    }

    /// Runs the script's segments for `point`, then the end of input; returns the scene.
    @discardableResult
    static func run(_ point: CallbackPoint, _ api: StateAPI) -> CallbackScene {
        let scene = CallbackScene(point, api)
        for segment in point.segments { scene.play(segment) }
        scene.h.finish()
        return scene
    }

    /// The drag session still under way once input has ended (none, if every drag ended as
    /// its rule says, however app code called back).
    var dragLeftUnderWay: DragSession? {
        engine.dragAndDrop.session.flatMap { $0.outcome == nil ? $0 : nil }
    }

    /// App code at `p` was called: if it is the point under test, it calls the API.
    func hit(_ p: CallbackPoint) {
        guard armed, p == point else { return }
        reached += 1
        guard called < 2, !calling else { return }
        called += 1
        calling = true
        defer { calling = false }
        call(api)
    }

    // MARK: The script

    private func frame(_ changes: [(Int, TouchPhase, Double, Double)], device: Int = 0) {
        h.frame(t, changes, device: device)
        t += 0.016
    }

    private func play(_ segment: Segment) {
        t += 0.5
        switch segment {
        case .photoTap:
            frame([(1, .began, 200, 200)])
            frame([(1, .ended, 200, 200)])
        case .photoPan:
            frame([(1, .began, 150, 150)])
            for i in 1...8 { frame([(1, .moved, 150 + Double(i) * 15, 150)]) }
            frame([(1, .ended, 270, 150)])
        case .photoPinch:
            frame([(1, .began, 150, 200), (2, .began, 250, 200)])
            for i in 1...8 { frame([(1, .moved, 150 - Double(i) * 6, 200), (2, .moved, 250 + Double(i) * 6, 200)]) }
            frame([(1, .ended, 102, 200), (2, .ended, 298, 200)])
        case .photoPress:
            frame([(1, .began, 200, 300)])
            t += 0.8
            h.advance(to: t)
            frame([(1, .ended, 200, 300)])
        case .touchpadPinch:
            func gesture(_ phase: TouchpadGestureEvent.Phase, scale: Double) {
                h.send(.touchpadGesture(TouchpadGestureEvent(kind: .pinch, phase: phase, time: Instant(seconds: t),
                                                             device: InputDeviceID(5), fingers: 2,
                                                             location: Point(x: 200, y: 200), scale: scale)))
                t += 0.016
            }
            gesture(.begin, scale: 1)
            for i in 1...5 { gesture(.update, scale: 1 + Double(i) * 0.1) }
            gesture(.end, scale: 1.5)
        case .displayLink:
            link?.isPaused = false
            t += 0.1
            h.advance(to: t)
        case .collectionTap:
            frame([(1, .began, 550, 80)])
            frame([(1, .ended, 550, 80)])
        case .collectionScroll:
            frame([(1, .began, 700, 800)])
            for i in 1...10 { frame([(1, .moved, 700, 800 - Double(i) * 40)]) }
            frame([(1, .ended, 700, 400)])
            t += 3
            h.advance(to: t)
        case .collectionPinch:
            frame([(1, .began, 650, 500), (2, .began, 750, 500)])
            for i in 1...8 { frame([(1, .moved, 650 - Double(i) * 5, 500), (2, .moved, 750 + Double(i) * 5, 500)]) }
            frame([(1, .ended, 610, 500), (2, .ended, 790, 500)])
        case .collectionReorder:
            frame([(1, .began, 550, 80)])
            t += 0.7
            h.advance(to: t)
            for i in 1...8 { frame([(1, .moved, 550 + Double(i) * 25, 80 + Double(i) * 25)]) }
            frame([(1, .ended, 750, 280)])
        case .zoom:
            frame([(1, .began, 150, 700), (2, .began, 250, 700)])
            for i in 1...8 { frame([(1, .moved, 150 - Double(i) * 10, 700), (2, .moved, 250 + Double(i) * 10, 700)]) }
            frame([(1, .ended, 70, 700), (2, .ended, 330, 700)])
            t += 1
            h.advance(to: t)
        case .contextMenu:
            // A touch held: the preview lifts at 0.25 s, the menu opens at 0.5 s; Copy is
            // chosen, as the presenter does when it is tapped.
            frame([(1, .began, 60, 450)])
            t += 0.7
            h.advance(to: t)
            frame([(1, .ended, 60, 450)])
            engine.presentedContextMenu?.interaction.chooseAction("Copy")
            // A secondary click opens it at the press; Escape dismisses it.
            t += 0.5
            h.pointer(60, 450, at: t)
            secondaryButton(true, 60, 450)
            secondaryButton(false, 60, 450)
            engine.presentedContextMenu?.interaction.dismissMenu()
            // The menu key, the pointer over the card; Paste is chosen.
            t += 0.5
            engine.sendMenuKey(at: max(Instant(seconds: t), engine.now))
            engine.presentedContextMenu?.interaction.chooseAction("Paste")
        case .dragAndDrop:
            // The note held 0.5 s lifts its item; over the tray, out of it and back.
            frame([(1, .began, 200, 450)])
            t += 0.6
            h.advance(to: t)
            for i in 1...6 { frame([(1, .moved, 200, 450 + Double(i) * 85)]) }
            frame([(1, .moved, 450, 950)])
            // A second touch taps the stamp: its item joins the drag.
            frame([(1, .moved, 200, 950), (2, .began, 340, 450)])
            frame([(2, .ended, 340, 450)])
            // Dropped on the tray.
            frame([(1, .ended, 200, 950)])
        }
    }

    private func secondaryButton(_ pressed: Bool, _ x: Double, _ y: Double) {
        h.send(.pointer(.button(pressed, at: Point(x: x, y: y), time: Instant(seconds: t), device: InputDeviceID(1),
                                button: 0x111)))
        t += 0.016
    }

    // MARK: The APIs

    private var recognizers: [GestureRecognizer] {
        [pan, pinch, tap, press, custom, collection.panGestureRecognizer] + (zoomer.pinchGestureRecognizer.map { [$0] } ?? [])
    }

    private func call(_ api: StateAPI) {
        let first = called == 1
        switch api {
        case .readRecognizers:
            for r in recognizers {
                _ = (r.state, r.numberOfTouches, r.location(in: r.view), r.location(ofTouch: 0, in: nil), r.view?.id,
                     r.modifierFlags, r.isEnabled)
            }
            _ = (pan.translation(in: photo), pan.velocity(in: nil), pinch.scale, pinch.velocity)
        case .readEngine:
            _ = (engine.now, engine.nextDeadline, engine.pointerLocation, engine.roots.count,
                 engine.hitTest(Point(x: 100, y: 100)), engine.hitTest(Point(x: 600, y: 100)))
        case .readViews:
            for view in [photo, zoomer, zoomContent, collection] as [View] {
                _ = (view.frame, view.bounds, view.subviews.count, view.gestureRecognizers.count,
                     view.convert(Point(x: 10, y: 10), to: nil), view.hitTest(Point(x: 10, y: 10)))
            }
        case .readCollection:
            _ = (collection.indexPathsForVisibleItems, collection.visibleCells.count,
                 collection.visibleSupplementaryViews.count, collection.contentOffset, collection.contentSize,
                 collection.indexPathsForSelectedItems, collection.indexPathForItem(at: Point(x: 50, y: 80)),
                 collection.layoutAttributesForItem(at: LayoutIndexPath(item: 1, section: 0)),
                 collection.cellForItem(at: LayoutIndexPath(item: 0, section: 0)), collection.numberOfSections,
                 collection.numberOfItems(inSection: 0), collection.scrollPhase, collection.zoomScale,
                 collection.indexPathForHighlightedItem, collection.interactiveMovement.map(\.0),
                 layout.collectionViewContentSize, zoomer.zoomScale, zoomer.contentOffset)
        case .isEnabled:
            pan.isEnabled = false
            pan.isEnabled = true
            collection.panGestureRecognizer.isEnabled = false
            collection.panGestureRecognizer.isEnabled = true
        case .requireToFail:
            if first { tap.require(toFail: press) } else { pinch.require(toFail: pan) }
        case .addGestureRecognizer:
            photo.addGestureRecognizer(TapGestureRecognizer(name: "added"))
            collection.addGestureRecognizer(LongPressGestureRecognizer(name: "added press"))
        case .removeGestureRecognizer:
            photo.removeGestureRecognizer(first ? pinch : tap)
        case .removeFromSuperview:
            (first ? photo : collection as View).removeFromSuperview()
        case .addSubview:
            photo.addSubview(View(id: "added", frame: Rect(x: 0, y: 0, width: 50, height: 50)))
            collection.addSubview(View(id: "added", frame: Rect(x: 0, y: 0, width: 50, height: 50)))
        case .setNeedsLayout:
            photo.setNeedsLayout()
            collection.setNeedsLayout()
        case .layoutIfNeeded:
            photo.setNeedsLayout()
            photo.layoutIfNeeded()
            collection.layoutIfNeeded()
        case .reloadData:
            collection.reloadData()
        case .setContentOffset:
            collection.setContentOffset(Point(x: 0, y: first ? 60 : 0), animated: !first)
            zoomer.contentOffset = Point(x: 0, y: 10)
        case .invalidateLayout:
            layout.invalidateLayout()
            layout.itemSize = Size(width: first ? 90 : 110, height: first ? 90 : 110)
        case .selectItem:
            collection.selectItem(at: LayoutIndexPath(item: first ? 2 : 3, section: 0))
        case .setZoomScale:
            zoomer.zoomScale = first ? 2 : 1
        case .send:
            let at = max(Instant(seconds: t), engine.now)
            engine.send(TouchFrame(time: at, device: InputDeviceID(9),
                                   changes: [TouchChange(sourceID: 7, phase: .began, location: Point(x: 950, y: 950))]))
            engine.send(TouchFrame(time: at, device: InputDeviceID(9),
                                   changes: [TouchChange(sourceID: 7, phase: .ended, location: Point(x: 950, y: 950))]))
        case .advance:
            engine.advance(to: engine.now + .milliseconds(1))
        case .finish:
            engine.finish()
        case .addDisplayLink:
            var frames = 0
            let added = engine.addDisplayLink { link in
                frames += 1
                if frames >= 2 { link.invalidate() }
            }
            added.isPaused = false
        case .setState:
            custom.setState(.failed, reason: "the matrix set it")
        case .addInteraction:
            if first {
                photo.addInteraction(ContextMenuInteraction(delegate: menuDelegate, name: "added menu"))
                tray.addInteraction(DragInteraction(delegate: dragDelegate))
            } else {
                photo.addInteraction(cardMenu)
            }
        case .removeInteraction:
            if first {
                card.removeInteraction(cardMenu)
                tray.removeInteraction(trayDrop)
            } else {
                note.removeInteraction(noteDrag)
            }
        case .readInteractions:
            for view in [photo, card, note, stamp, tray] { _ = view.interactions.count }
            _ = (cardMenu.state, cardMenu.presentedMenu?.menu.actions.count, cardMenu.location(in: card), cardMenu.view?.id,
                 cardMenu.gestureRecognizer.state, cardMenu.gestureRecognizer.minimumPressDuration,
                 engine.presentedContextMenu?.interaction.name)
            _ = (noteDrag.isEnabled, noteDrag.liftDelay, noteDrag.view?.id, stampDrag.isEnabled, trayDrop.isEnabled,
                 trayDrop.view?.id)
            if let session {
                _ = (session.items.count, session.location(in: tray), session.operation, session.target?.view?.id,
                     session.outcome, session.contentTypes, session.hasItemsConforming(to: [.plainText]),
                     session.sourceInteraction?.view?.id, session.allowsMoveOperation)
                for item in session.items { item.itemProvider.loadData(for: .plainText) { _ in } }
            }
        case .interactionsEnabled:
            for enabled in [false, true] {
                noteDrag.isEnabled = enabled
                trayDrop.isEnabled = enabled
                cardMenu.gestureRecognizer.isEnabled = enabled
            }
        case .closeMenu:
            if first { engine.presentedContextMenu?.interaction.chooseAction("Copy") }
            else { engine.presentedContextMenu?.interaction.dismissMenu() }
        case .sendMenuKey:
            engine.sendMenuKey(at: max(Instant(seconds: t), engine.now), focusedView: card)
        }
    }
}

// MARK: - The hooks

final class HookView: View {
    weak var scene: CallbackScene?
    override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        scene?.hit(.viewShouldBegin)
        return true
    }
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) { scene?.hit(.viewTouches) }
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { scene?.hit(.viewTouches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { scene?.hit(.viewTouches) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) { scene?.hit(.viewTouches) }
    override func hitTest(_ point: Point) -> View? {
        scene?.hit(.viewHitTest)
        return super.hitTest(point)
    }
    override func point(inside point: Point) -> Bool {
        scene?.hit(.viewHitTest)
        return super.point(inside: point)
    }
    override func layoutSubviews() {
        super.layoutSubviews()
        scene?.hit(.viewLayoutSubviews)
    }
}

/// A subclass of a built-in, as UIKit apps subclass `UIPanGestureRecognizer`.
final class HookPan: PanGestureRecognizer {
    weak var scene: CallbackScene?
    override func canPrevent(_ preventedGestureRecognizer: GestureRecognizer) -> Bool {
        scene?.hit(.recognizerOverrides)
        return true
    }
    override func canBePrevented(by preventingGestureRecognizer: GestureRecognizer) -> Bool {
        scene?.hit(.recognizerOverrides)
        return true
    }
    override func shouldRequireFailure(of otherGestureRecognizer: GestureRecognizer) -> Bool {
        scene?.hit(.recognizerOverrides)
        return false
    }
    override func shouldBeRequiredToFail(by otherGestureRecognizer: GestureRecognizer) -> Bool {
        scene?.hit(.recognizerOverrides)
        return false
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.recognizerOverrides)
        super.touchesMoved(touches, with: event)
    }
}

/// A recognizer of the app's own, written UIKit's way: it watches touches, asks for a
/// deadline 0.3 s after its first, understands a touchpad pinch, and fails when its touches
/// lift.
final class HookRecognizer: GestureRecognizer {
    weak var scene: CallbackScene?
    private var began: Instant?
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.recognizerTouches)
        if began == nil { began = event.timestamp }
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { scene?.hit(.recognizerTouches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.recognizerTouches)
        state = .failed
    }
    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.recognizerTouches)
        state = .failed
    }
    override var deadline: Instant? {
        scene?.hit(.recognizerDeadline)
        return began.map { $0 + .milliseconds(300) }
    }
    override func deadlineReached(at time: Instant) -> GestureDecision {
        scene?.hit(.recognizerDeadline)
        began = nil
        return .none
    }
    override func understands(_ kind: TouchpadGestureEvent.Kind) -> Bool {
        scene?.hit(.recognizerTouchpad)
        return kind == .pinch
    }
    override func touchpadGesture(_ event: TouchpadGestureEvent) -> GestureDecision {
        scene?.hit(.recognizerTouchpad)
        return event.phase == .end ? .fail(.touchesEnded) : .none
    }
    override func reset() {
        scene?.hit(.recognizerReset)
        began = nil
    }
}

final class HookDelegate: GestureRecognizerDelegate {
    weak var scene: CallbackScene?
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        scene?.hit(.delegateShouldBegin)
        return true
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        scene?.hit(.delegateShouldReceive)
        return true
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        scene?.hit(.delegateSimultaneous)
        return false
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        scene?.hit(.delegateRequireFailure)
        return false
    }
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
        scene?.hit(.delegateRequireFailure)
        return false
    }
}

final class HookScrollDelegate: ScrollViewDelegate {
    weak var scene: CallbackScene?
    weak var zoomed: View?
    func viewForZooming(in scrollView: ScrollView) -> View? {
        scene?.hit(.scrollZooming)
        return zoomed
    }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) { scene?.hit(.scrollZooming) }
    func scrollViewDidZoom(_ scrollView: ScrollView) { scene?.hit(.scrollZooming) }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) { scene?.hit(.scrollZooming) }
}

/// A flow layout of the app's own that looks at its collection view as it is asked.
final class HookFlowLayout: FlowLayout {
    weak var scene: CallbackScene?
    override func prepare() {
        super.prepare()
        scene?.hit(.layoutPrepare)
    }
    override func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        scene?.hit(.layoutAttributes)
        return super.layoutAttributesForElements(in: rect)
    }
    override var collectionViewContentSize: Size {
        scene?.hit(.layoutQueries)
        return super.collectionViewContentSize
    }
    override func layoutAttributesForItem(at indexPath: LayoutIndexPath) -> LayoutAttributes? {
        scene?.hit(.layoutQueries)
        return super.layoutAttributesForItem(at: indexPath)
    }
    override func shouldInvalidateLayout(forBoundsChange newBounds: Rect) -> Bool {
        scene?.hit(.layoutQueries)
        return super.shouldInvalidateLayout(forBoundsChange: newBounds)
    }
    override func targetIndexPathForInteractivelyMovingItem(_ previousIndexPath: LayoutIndexPath,
                                                            withPosition position: Point) -> LayoutIndexPath? {
        scene?.hit(.collectionMovement)
        return super.targetIndexPathForInteractivelyMovingItem(previousIndexPath, withPosition: position)
    }
}

final class HookCell: CollectionViewCell {
    weak var scene: CallbackScene?
    override func apply(_ attributes: LayoutAttributes) {
        super.apply(attributes)
        scene?.hit(.cellApply)
    }
    override func prepareForReuse() {
        super.prepareForReuse()
        scene?.hit(.cellPrepareForReuse)
    }
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.cellTouches)
        super.touchesBegan(touches, with: event)
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        scene?.hit(.cellTouches)
        super.touchesEnded(touches, with: event)
    }
}

/// Two sections of 25 items; the collection view's data source and delegate.
final class HookSource: CollectionViewDataSource, CollectionViewDelegate {
    weak var scene: CallbackScene?
    var counts = [25, 25]
    func numberOfSections(in collectionView: CollectionView) -> Int {
        scene?.hit(.dataSourceCounts)
        return counts.count
    }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        scene?.hit(.dataSourceCounts)
        return counts[section]
    }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: LayoutIndexPath) -> CollectionViewCell {
        scene?.hit(.dataSourceCell)
        return collectionView.dequeueReusableCell(withReuseIdentifier: "cell", for: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: LayoutIndexPath) -> CollectionReusableView? {
        scene?.hit(.dataSourceSupplementary)
        return collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
    }
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: LayoutIndexPath) -> Bool {
        scene?.hit(.collectionMovement)
        return true
    }
    func collectionView(_ collectionView: CollectionView, moveItemAt source: LayoutIndexPath, to destination: LayoutIndexPath) {
        scene?.hit(.collectionMovement)
        counts[source.section] -= 1
        counts[destination.section] += 1
    }
    func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: LayoutIndexPath) -> Bool {
        scene?.hit(.collectionHighlight)
        return true
    }
    func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: LayoutIndexPath) {
        scene?.hit(.collectionHighlight)
    }
    func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: LayoutIndexPath) {
        scene?.hit(.collectionHighlight)
    }
    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: LayoutIndexPath) -> Bool {
        scene?.hit(.collectionSelect)
        return true
    }
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: LayoutIndexPath) {
        scene?.hit(.collectionSelect)
    }
    func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: LayoutIndexPath) -> Bool {
        scene?.hit(.collectionSelect)
        return true
    }
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: LayoutIndexPath) {
        scene?.hit(.collectionSelect)
    }
    func collectionView(_ collectionView: CollectionView,
                        targetIndexPathForMoveOfItemFromOriginalIndexPath original: LayoutIndexPath,
                        atCurrentIndexPath current: LayoutIndexPath,
                        toProposedIndexPath proposed: LayoutIndexPath) -> LayoutIndexPath {
        scene?.hit(.collectionMovement)
        return proposed
    }
    func scrollViewDidScroll(_ scrollView: ScrollView) { scene?.hit(.scrollDidScroll) }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { scene?.hit(.scrollDragging) }
    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point,
                                   targetContentOffset: inout Point) { scene?.hit(.scrollDragging) }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) { scene?.hit(.scrollDragging) }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { scene?.hit(.scrollDecelerating) }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { scene?.hit(.scrollDecelerating) }
}

/// A log handler of the app's own (swift-log's `LogHandler`), at debug level: the engine
/// logs every trace event through it.
struct HookLogHandler: LogHandler, @unchecked Sendable {
    weak var scene: CallbackScene?
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        scene?.hit(.logHandler)
    }
}

/// The card's menu (Copy, Paste), and the app's drawing of it.
final class HookMenuDelegate: ContextMenuInteractionDelegate, ContextMenuPresenter {
    weak var scene: CallbackScene?
    func contextMenuInteraction(_ interaction: ContextMenuInteraction,
                                configurationForMenuAtLocation location: Point) -> ContextMenuConfiguration? {
        scene?.hit(.contextMenuConfiguration)
        return ContextMenuConfiguration(identifier: "card") { [weak self] _ in
            self?.scene?.hit(.contextMenuActionProvider)
            let handler: (MenuAction) -> Void = { [weak self] _ in self?.scene?.hit(.menuActionHandler) }
            return Menu(title: "Card", children: [.action(MenuAction(title: "Copy", handler: handler)),
                                                  .action(MenuAction(title: "Paste", handler: handler))])
        }
    }
    func contextMenuInteraction(_ interaction: ContextMenuInteraction, willDisplayMenuFor configuration: ContextMenuConfiguration) {
        scene?.hit(.contextMenuWillDisplay)
    }
    func contextMenuInteraction(_ interaction: ContextMenuInteraction, willEndFor configuration: ContextMenuConfiguration) {
        scene?.hit(.contextMenuWillEnd)
    }
    func present(_ menu: PresentedContextMenu) { scene?.hit(.contextMenuPresenter) }
    func dismiss(_ menu: PresentedContextMenu) { scene?.hit(.contextMenuPresenter) }
}

/// The note's and the stamp's drag delegate: each gives one item whose text is made when it
/// is loaded.
final class HookDragDelegate: DragInteractionDelegate {
    weak var scene: CallbackScene?
    private func item(_ text: String) -> DragItem {
        let provider = ItemProvider()
        provider.registerDataRepresentation(for: .plainText) { [weak self] completion in
            self?.scene?.hit(.itemProviderLoader)
            completion(.success(Array(text.utf8)))
        }
        return DragItem(itemProvider: provider)
    }
    func dragInteraction(_ interaction: DragInteraction, itemsForBeginning session: DragSession) -> [DragItem] {
        scene?.session = session
        scene?.hit(.dragItemsForBeginning)
        return [item("note")]
    }
    func dragInteraction(_ interaction: DragInteraction, itemsForAddingTo session: DragSession,
                         withTouchAt point: Point) -> [DragItem] {
        scene?.hit(.dragItemsForAdding)
        return [item("stamp")]
    }
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, willAdd items: [DragItem]) {
        scene?.hit(.dragItemsForAdding)
    }
    func dragInteraction(_ interaction: DragInteraction, sessionAllowsMoveOperation session: DragSession) -> Bool {
        scene?.hit(.dragWillBegin)
        return true
    }
    func dragInteraction(_ interaction: DragInteraction, sessionWillBegin session: DragSession) {
        scene?.hit(.dragWillBegin)
    }
    func dragInteraction(_ interaction: DragInteraction, sessionDidMove session: DragSession) {
        scene?.hit(.dragDidMove)
    }
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, willEndWith operation: DropOperation) {
        scene?.hit(.dragEnd)
    }
    func dragInteraction(_ interaction: DragInteraction, session: DragSession, didEndWith operation: DropOperation) {
        scene?.hit(.dragEnd)
    }
}

/// The tray: takes text, copies it, and loads every item's data when it is dropped.
final class HookDropDelegate: DropInteractionDelegate {
    weak var scene: CallbackScene?
    private(set) var dropped: [String] = []
    func dropInteraction(_ interaction: DropInteraction, canHandle session: DropSession) -> Bool {
        scene?.hit(.dropCanHandle)
        return session.hasItemsConforming(to: [.plainText])
    }
    func dropInteraction(_ interaction: DropInteraction, sessionDidEnter session: DropSession) {
        scene?.hit(.dropEnterExit)
    }
    func dropInteraction(_ interaction: DropInteraction, sessionDidUpdate session: DropSession) -> DropProposal {
        scene?.hit(.dropUpdate)
        return DropProposal(operation: .copy)
    }
    func dropInteraction(_ interaction: DropInteraction, sessionDidExit session: DropSession) {
        scene?.hit(.dropEnterExit)
    }
    func dropInteraction(_ interaction: DropInteraction, performDrop session: DropSession) {
        scene?.hit(.dropPerform)
        for item in session.items {
            item.itemProvider.loadData(for: .plainText) { [weak self] result in
                self?.scene?.hit(.itemProviderLoader)
                if case let .success(bytes) = result { self?.dropped.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }
    func dropInteraction(_ interaction: DropInteraction, concludeDrop session: DropSession) {
        scene?.hit(.dropEnd)
    }
    func dropInteraction(_ interaction: DropInteraction, sessionDidEnd session: DropSession) {
        scene?.hit(.dropEnd)
    }
}

// MARK: - The matrix

@Suite("Callbacks may call the library: every public API from every callback point")
struct CallbackMatrixTests {
    /// The misuse a cell stops with, if it is one that must: `reloadData()` during a layout
    /// pass (CollectionView.swift). Every other cell runs its script to the end.
    static func expectedStop(_ point: CallbackPoint, _ api: StateAPI) -> String? {
        api == .reloadData && point.isReachedDuringALayoutPass ? "CollectionView.reloadData()" : nil
    }

    /// `GESTUREKIT_MATRIX_ISOLATED=1`: every cell runs in a process of its own.
    static let isolated = ProcessInfo.processInfo.environment["GESTUREKIT_MATRIX_ISOLATED"] == "1"

    @Test("app code at each callback point calls each public API that reads or changes state: the script runs to the end, or stops with the documented precondition",
          arguments: CallbackPoint.allCases, StateAPI.allCases)
    func cell(_ point: CallbackPoint, _ api: StateAPI) async {
        if Self.isolated {
            // Each cell in a process of its own: a cell that traps is reported, not the end
            // of the run (for finding them; slower).
            await #expect(processExitsWith: Self.expectedStop(point, api) == nil ? .success : .failure) { [point, api] in
                _ = CallbackScene.run(point, api)
            }
            return
        }
        if let misuse = Self.expectedStop(point, api) {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [point, api] in
                _ = CallbackScene.run(point, api)
            }
            // A precondition's message is printed in a debug build only (an optimized build
            // stops with "precondition failure"), so the misuse is named where it is printed.
            #if DEBUG
            let stderr = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
            #expect(stderr.contains(misuse),
                    "\(api) from \(point) stops with a precondition naming \(misuse); the process said: \(stderr.suffix(600))")
            #else
            _ = (result, misuse)
            #endif
        } else {
            let scene = CallbackScene.run(point, api)
            #expect(scene.reached > 0, "the script reaches \(point) (it calls \(api) there)")
            #expect(scene.dragLeftUnderWay == nil,
                    "every drag ends by the end of input (\(api) from \(point)); session \(scene.dragLeftUnderWay?.id ?? 0) is still under way")
        }
    }
}
