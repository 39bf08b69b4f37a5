import GestureKit

extension CollectionView {
    // MARK: Pinch to resize

    /// Installs the pinch-to-resize pattern on a collection view with a `FlowLayout`, and
    /// returns its recognizer.
    ///
    /// - Every pinch recognizer already on the collection view is made to require the new
    ///   one to fail, so the resize wins over them.
    /// - On `began` the layout's item size is remembered (`itemSizeAtPinchBegan`).
    /// - On `began` and on every `changed`: `itemSize = itemSizeAtPinchBegan × scale` (the
    ///   pinch's scale is relative to its span at began, so successive scales are never
    ///   multiplied together), which invalidates the layout's metrics; the collection view
    ///   lays itself out once, by CollectionViewLayout's rule: at the end of the step, so that
    ///   an action of the app's that changes the layout again in the same step (clamps the
    ///   item size) costs no second layout; or, when `onLayoutChange` is given, at once
    ///   (`layoutIfNeeded()`), and then `onLayoutChange(itemSize, contentSize)` is called with
    ///   the cells in place (what the replay tool prints as a `layout` line).
    /// - On `ended` or `cancelled` the item size stays where the last change left it.
    ///
    /// Does nothing while the layout is not a `FlowLayout`, or for a non-finite or
    /// non-positive scale.
    @discardableResult
    public func installPinchToResize(name: String? = nil,
                                     onLayoutChange: ((_ itemSize: Size, _ contentSize: Size) -> Void)? = nil)
        -> PinchGestureRecognizer {
        let pinch = PinchGestureRecognizer(name: name ?? "\(debugName).pinchToResize")
        for existing in gestureRecognizers where existing is PinchGestureRecognizer {
            // Cannot close a cycle: nothing requires the new recognizer yet.
            existing.require(toFail: pinch)
        }
        installPinchToResize(on: pinch, onLayoutChange: onLayoutChange)
        addGestureRecognizer(pinch)
        return pinch
    }

    /// The pinch-to-resize pattern driven by a pinch recognizer of your own, configured and
    /// attached where you want it (a scene's, with its own threshold and arbitration): the
    /// same rules as `installPinchToResize(name:onLayoutChange:)`, which makes its recognizer
    /// and calls this. Nothing else is changed on `pinch` or on other recognizers.
    public func installPinchToResize(on pinch: PinchGestureRecognizer,
                                     onLayoutChange: ((_ itemSize: Size, _ contentSize: Size) -> Void)? = nil) {
        pinch.addTarget { [weak self] pinch in
            guard let self else { return }
            switch pinch.state {
            case .began, .changed:
                guard let flow = layout as? FlowLayout else { return }
                if pinch.state == .began { itemSizeAtPinchBegan = flow.itemSize }
                guard let base = itemSizeAtPinchBegan, pinch.scale.isFinite, pinch.scale > 0 else { return }
                // Setting the size invalidates the metrics (FlowLayout's configuration rule),
                // and the collection view is laid out at the end of the step; one who listens
                // sees the result now instead (the layout is not done twice).
                flow.itemSize = base * pinch.scale
                if let onLayoutChange {
                    layoutIfNeeded()
                    onLayoutChange(flow.itemSize, contentSize)
                }
            case .ended, .cancelled:
                itemSizeAtPinchBegan = nil
            case .possible, .failed:
                break
            }
        }
    }

    // MARK: Scrolling

    /// Makes a new pan recognizer (attached to the collection view) the one that scrolls it,
    /// in place of its own one-finger `panGestureRecognizer` (removed): from `began` on,
    /// `contentOffset = offsetAtBegan − translation` with the rubber band past the edges, then
    /// deceleration and bounce, as `ScrollView` scrolls. Set its touch counts to scroll with
    /// two fingers. It keeps the recognizer defaults, so a drag that begins a scroll cancels
    /// the touch on the cell (unhighlighted, not selected).
    @discardableResult
    public func installScrollingPan(name: String? = nil) -> PanGestureRecognizer {
        let pan = PanGestureRecognizer(name: name ?? "\(debugName).scroll")
        replaceScrollingPan(with: pan)
        return pan
    }
}
