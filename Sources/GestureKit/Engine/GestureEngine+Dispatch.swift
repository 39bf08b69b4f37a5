/// Input in: each frame's touch changes become touch records, and every recognizer in the
/// arena of a changed touch is fed that touch, phase by phase (began, moved, ended,
/// cancelled), in the order the recognizers first appear in the frame's arenas.
extension GestureEngine {
    /// One touch the engine holds: where it is, the view it was hit-tested to, and how far
    /// its events have reached that view.
    struct TouchRecord {
        var touch: Touch
        let view: View?
        var lifted = false
        var delivery = ViewDelivery.notBegun
        /// Events held back from the view by delaysTouchesBegan / delaysTouchesEnded.
        var held: [Touch] = []
        /// A touchpad gesture rather than a contact (recognizers only, never views): its last
        /// event, which its cancel is made from (`TouchpadGestureEvent.cancelled`). The one
        /// home of a touchpad gesture under way in the engine. (Held by reference, so that a
        /// contact's record, which every frame walks, stays as small as it was.)
        private var gestureEvent: GestureEventBox?
        /// The kind of the touchpad gesture, if the record is one.
        @inline(__always)
        var gestureKind: TouchpadGestureEvent.Kind? { gestureEvent?.kind }

        /// The touchpad gesture's last event, if the record is one.
        var gesture: TouchpadGestureEvent? {
            get { gestureEvent?.event }
            set { gestureEvent = newValue.map(GestureEventBox.init) }
        }

        init(touch: Touch, view: View?, gesture: TouchpadGestureEvent? = nil) {
            self.touch = touch
            self.view = view
            self.gestureEvent = gesture.map(GestureEventBox.init)
            if view == nil || gesture != nil { delivery = .finished }
        }
    }

    /// A touchpad gesture's last event, and its kind apart (what every frame's checks read).
    final class GestureEventBox {
        let event: TouchpadGestureEvent
        let kind: TouchpadGestureEvent.Kind

        init(_ event: TouchpadGestureEvent) {
            self.event = event
            kind = event.kind
        }
    }

    /// The touches the engine still holds a record of: down, lifted in the current step, or
    /// with events held back from their view. Arbitration only considers these (for tests).
    var recordedTouchIDs: [TouchID] { storage.records.map(\.touch.id) }

    func recordIndex(of id: TouchID) -> Int? {
        for i in storage.records.indices where storage.records[i].touch.id == id { return i }
        return nil
    }

    private func activeRecord(device: InputDeviceID, sourceID: Int) -> Int? {
        for i in storage.records.indices {
            let touch = storage.records[i].touch
            if touch.sourceID == sourceID && touch.device == device && !storage.records[i].lifted
                && storage.records[i].gestureKind == nil {
                return i
            }
        }
        return nil
    }

    /// The recognizers that may take a touch on `view`: those attached to it and to its
    /// ancestors, enabled, that `accepts` and whose delegate lets them receive the touch.
    // (A scroll sequence is no touch: allowedScrollTypes decide, not allowedTouchTypes.)
    private func arenaMembers(for touch: Touch, on view: View?,
                              accepts: (GestureRecognizer) -> Bool = { _ in true }) -> [RecognizerSlot] {
        // The recognizers first, then their slots: the questions (`shouldReceive`, a recognizer
        // of the app's own's `understands`) are app code, which may remove a recognizer or a
        // view, or add one that takes a slot given back meanwhile.
        var accepted: [GestureRecognizer] = []
        var v = view
        while let current = v {
            for r in current.gestureRecognizers where r.isEnabled && accepts(r) && r.allows(touch) {
                guard slot(of: r) != nil, exclusiveTypeAllows(r, touch) else { continue }
                if r.delegate?.gestureRecognizer(r, shouldReceive: touch) ?? true { accepted.append(r) }
            }
            v = current.superview
        }
        var members: [RecognizerSlot] = []
        members.reserveCapacity(accepted.count)
        for r in accepted {
            guard let s = slot(of: r), r.isEnabled else { continue }
            members.append(s)
            if storage.table.member(s)?.touches.isEmpty != false { r.sequenceTouchType = touch.type }
        }
        return members
    }

    /// UIKit's `requiresExclusiveTouchType`: a recognizer that tracks touches of one type in
    /// its sequence ignores a touch of another (a pen's touch joining a finger's pinch, a
    /// click joining a touchscreen pan).
    private func exclusiveTypeAllows(_ r: GestureRecognizer, _ touch: Touch) -> Bool {
        guard r.requiresExclusiveTouchType, touch.sourceID != -1 || touch.deviceKind != .pointer,
              let s = slot(of: r), storage.table.member(s)?.touches.isEmpty == false,
              let type = r.sequenceTouchType else { return true }
        return type == touch.type
    }

    // MARK: - Frames

    func dispatch(_ frame: TouchFrame) {
        storage.frameTouches.clearKeepingCapacity()
        for change in frame.changes {
            ingest(change, of: frame)
        }
        feedRecognizers()
        // Events held from earlier frames go first: they are older.
        var index = 0
        while index < storage.records.count {
            settle(index)
            index += 1
        }
        var t = 0
        while t < storage.frameTouches.count {
            let entry = storage.frameTouches[t]
            t += 1
            var touch = storage.records[entry.record].touch
            touch.phase = entry.phase
            deliverToView(entry.record, touch)
        }
    }

    private func ingest(_ change: TouchChange, of frame: TouchFrame) {
        switch change.phase {
        case .began:
            guard change.location.isFinite else {
                ignored("touch \(change.sourceID) of \(frame.device) began at a non-finite location: the touch is ignored")
                return
            }
            if let old = activeRecord(device: frame.device, sourceID: change.sourceID) {
                ignored("touch \(change.sourceID) of \(frame.device) began again while down: the earlier touch is cancelled")
                storage.records[old].lifted = true
                storage.records[old].touch.phase = .cancelled
                storage.records[old].touch.timestamp = now
                storage.frameTouches.append((old, .cancelled))
            }
            let touch = Touch(id: storage.table.newTouchID(), change: change, frame: frame)
            var view = hitTest(change.location)
            if let v = view, let blocker = exclusiveTouchBlocker(for: v) {
                ignored("touch \(change.sourceID) of \(frame.device) began on \(v.debugName) while \(blocker.debugName) is touched and \(blocker.isExclusiveTouch ? blocker.debugName : v.debugName) is exclusive-touch: it reaches no view and no recognizer")
                view = nil
            }
            // The members first: the delegates' `shouldReceive` is app code, asked with nothing held.
            let members = arenaMembers(for: touch, on: view)
            storage.table.openArena(touch.id, members: members)
            var record = TouchRecord(touch: touch, view: view)
            if let v = view, !v.isMultipleTouchEnabled,
               storage.records.contains(where: { !$0.lifted && $0.view === v && $0.gestureKind == nil }) {
                // The view already has a touch: it hears only that one (its recognizers see both).
                record.delivery = .finished
            }
            storage.records.append(record)
            storage.frameTouches.append((storage.records.count - 1, .began))
        case .moved:
            guard let i = activeRecord(device: frame.device, sourceID: change.sourceID) else {
                ignored("touch \(change.sourceID) of \(frame.device) moved but is not down")
                return
            }
            guard change.location.isFinite else {
                ignored("touch \(change.sourceID) of \(frame.device) moved to a non-finite location: it stays where it was")
                return
            }
            storage.records[i].touch.previousLocation = storage.records[i].touch.location
            storage.records[i].touch.location = change.location
            storage.records[i].touch.timestamp = max(storage.records[i].touch.timestamp, frame.time)
            if let pen = frame.pen { storage.records[i].touch.penSample = pen }
            if let last = storage.frameTouches.lastIndex(where: { $0.record == i }) {
                // A second change for the same touch in one frame updates the first.
                if storage.frameTouches[last].phase == .began || storage.frameTouches[last].phase == .moved { return }
            }
            storage.records[i].touch.phase = .moved
            storage.frameTouches.append((i, .moved))
        case .ended, .cancelled:
            guard let i = activeRecord(device: frame.device, sourceID: change.sourceID) else {
                ignored("touch \(change.sourceID) of \(frame.device) \(change.phase.rawValue) but is not down")
                return
            }
            if change.location.isFinite && change.location != storage.records[i].touch.location {
                storage.records[i].touch.previousLocation = storage.records[i].touch.location
                storage.records[i].touch.location = change.location
            }
            storage.records[i].touch.timestamp = max(storage.records[i].touch.timestamp, frame.time)
            if let pen = frame.pen { storage.records[i].touch.penSample = pen }
            storage.records[i].touch.phase = change.phase
            storage.records[i].lifted = true
            storage.frameTouches.append((i, change.phase))
        }
    }

    @inline(__always)
    private static func phaseBit(_ phase: TouchPhase) -> UInt8 {
        switch phase {
        case .began: 1
        case .moved: 2
        case .ended: 4
        case .cancelled: 8
        }
    }

    @inline(__always)
    private static func phaseIndex(_ phase: TouchPhase) -> Int {
        switch phase {
        case .began: 0
        case .moved: 1
        case .ended: 2
        case .cancelled: 3
        }
    }

    @inline(__always)
    private static func phase(ofBit bit: UInt8) -> TouchPhase {
        switch bit {
        case 1: .began
        case 2: .moved
        case 4: .ended
        default: .cancelled
        }
    }

    private func feedRecognizers() {
        // The phases this frame has: a frame of moves skips the began, ended and cancelled
        // passes (they would find no touch) for every recognizer.
        // (The loops below go by index: a `for` over a stored array would retain and release
        // its storage every time, and these run for every frame.)
        var present: UInt8 = 0
        var newestID = TouchID(rawValue: Int.min)
        var t = 0
        while t < storage.frameTouches.count {
            present |= GestureEngine.phaseBit(storage.frameTouches[t].phase)
            newestID = max(newestID, storage.records[storage.frameTouches[t].record].touch.id)
            t += 1
        }
        // The recognizers to feed, in the order they first appear in the frame's arenas. One
        // reset since every touch of the frame began (it failed, or was excluded) can take
        // none of them, and nothing happens to it in this step: it is passed over, so a
        // frame costs in proportion to the recognizers still in the gesture.
        storage.feedList.removeAll()
        let mark = storage.stepCounter
        // A recognizer in a final state hears nothing until its sequence ends: only a frame
        // that lifts touches concerns it (new touches join it below, without it). A frame
        // without lifts goes through each arena's `live` list (its members not in a final
        // state, in the same order), so it never visits them.
        let lifts = present & (GestureEngine.phaseBit(.ended) | GestureEngine.phaseBit(.cancelled)) != 0
        t = 0
        while t < storage.frameTouches.count {
            let touch = storage.records[storage.frameTouches[t].record].touch.id
            t += 1
            guard let a = storage.table.arenaIndex(touch) else { continue }
            if lifts {
                var m = 0
                while m < storage.table.arenas[a].members.count {
                    feedOnce(storage.table.arenas[a].members[m], mark: mark, newestID: newestID)
                    m += 1
                }
            } else {
                // (None in `live` is final: one entering a final state makes the list anew.)
                storage.table.refreshLive(a)
                var m = 0
                while m < storage.table.arenas[a].live.count {
                    feedOnce(storage.table.arenas[a].live[m], mark: mark, newestID: newestID)
                    m += 1
                }
            }
        }
        // New touches join every recognizer that sees them before any recognizer hears of
        // the frame (Arbiter.join says why).
        if present & GestureEngine.phaseBit(.began) != 0 {
            for entry in storage.frameTouches where entry.phase == .began {
                let id = storage.records[entry.record].touch.id
                storage.table.join(id)
            }
        }
        // The frame's touches by phase, built once: a recognizer that tracks all of a phase's
        // touches (almost every one) is handed that list as it is; one that tracks some of
        // them gets its own, collected in `buffer`. (Both are moved out of, and back into,
        // the engine's storage, so it is reused from frame to frame.)
        var byPhase: [[Touch]] = []
        swap(&byPhase, &storage.touchesByPhase)
        var buffer: [Touch] = []
        swap(&buffer, &storage.touchBuffer)
        defer {
            swap(&buffer, &storage.touchBuffer)
            swap(&byPhase, &storage.touchesByPhase)
        }
        if byPhase.count < 4 { byPhase = [[], [], [], []] }
        for p in 0..<4 { byPhase[p].clearKeepingCapacity() }
        t = 0
        while t < storage.frameTouches.count {
            let entry = storage.frameTouches[t]
            t += 1
            var touch = storage.records[entry.record].touch
            touch.phase = entry.phase
            byPhase[GestureEngine.phaseIndex(entry.phase)].append(touch)
        }
        var f = 0
        while f < storage.feedList.count {
            let r = storage.feedList[f]
            f += 1
            // A recognizer reset since these touches began (it failed, or was excluded) takes
            // none of them: every pass below would skip every touch.
            guard storage.table.isMember(r), storage.table.records[r.rawValue].minimumTouchID <= newestID else { continue }
            // The frame's phases in order: began, moved, ended, cancelled (lowest bit first).
            var phases = present
            while phases != 0 {
                let phase = GestureEngine.phase(ofBit: phases & (~phases &+ 1))
                phases &= phases &- 1
                guard storage.table.isEnabled(r) else { break }
                let p = GestureEngine.phaseIndex(phase)
                var tracked = 0
                t = 0
                while t < storage.frameTouches.count {
                    let entry = storage.frameTouches[t]
                    t += 1
                    guard entry.phase == phase, storage.table.isTracking(r, storage.records[entry.record].touch.id) else { continue }
                    tracked += 1
                    if phase == .ended || phase == .cancelled {
                        storage.table.lift(r)
                    }
                }
                guard tracked > 0 else { continue }
                if storage.table.records[r.rawValue].state.isFinal {
                    // Waiting for its sequence to end; that may be now.
                    if storage.table.records[r.rawValue].touchesDown <= 0 { endSequenceIfOver(r) }
                    continue
                }
                if tracked < byPhase[p].count {
                    buffer.clearKeepingCapacity()
                    for touch in byPhase[p] where storage.table.isTracking(r, touch.id) {
                        buffer.append(touch)
                    }
                }
                let touches = tracked < byPhase[p].count ? buffer : byPhase[p]
                let withdrawals = storage.withdrawals
                let decision = withRecognizer(r) { recognizer -> GestureDecision in
                    switch phase {
                    case .began: recognizer.touchesBegan(touches, at: now)
                    case .moved: recognizer.touchesMoved(touches, at: now)
                    case .ended: recognizer.touchesEnded(touches, at: now)
                    case .cancelled: recognizer.touchesCancelled(touches, at: now)
                    }
                }
                apply(decision, to: r, unlessWithdrawnSince: withdrawals)
            }
        }
        // A touch that joined a gesture under way, whose recognizer cancels touches in view,
        // never reaches its view (a recognizer that began in this frame took its touches when
        // it began).
        if present & GestureEngine.phaseBit(.began) != 0 {
            for entry in storage.frameTouches where entry.phase == .began {
                let id = storage.records[entry.record].touch.id
                guard let a = storage.table.arenaIndex(id) else { continue }
                for r in storage.table.arenas[a].members
                where storage.table.records[r.rawValue].state.isActive && storage.table.isTracking(r, id)
                    && withRecognizer(r, { $0.cancelsTouchesInView }) {
                    cancelForView(entry.record)
                    break
                }
            }
        }
    }

    // MARK: - Touchpad gestures

    func dispatch(_ event: TouchpadGestureEvent) {
        let existing = storage.records.firstIndex { !$0.lifted && $0.gestureKind != nil && $0.touch.device == event.device }
        switch event.phase {
        case .begin:
            if let existing, let earlier = storage.records[existing].gesture {
                ignored("a touchpad \(event.kind) began while a \(earlier.kind) was under way: the earlier one is cancelled")
                liftGesture(existing, with: earlier.cancelled(at: event.time, location: event.location))
            }
            let touch = Touch(id: storage.table.newTouchID(), gesture: event)
            let view = hitTest(event.location)
            let members = arenaMembers(for: touch, on: view) { $0.understands(event.kind) }
            storage.table.openArena(touch.id, members: members)
            storage.records.append(TouchRecord(touch: touch, view: view, gesture: event))
            // Handed to its recognizers one by one: each joins, then hears of it.
            for r in members where storage.table.isEnabled(r) {
                storage.table.join(touch.id, member: r)
                applyTouchpadGesture(event, to: r)
            }
        case .update:
            guard let existing, storage.records[existing].gestureKind == event.kind else {
                ignored("touchpad \(event.kind) update with no \(event.kind) under way")
                break
            }
            storage.records[existing].touch.location = event.location
            storage.records[existing].touch.timestamp = now
            storage.records[existing].gesture = event
            let id = storage.records[existing].touch.id
            for r in storage.table.members(of: id) where storage.table.isTracking(r, id) && !storage.table.records[r.rawValue].state.isFinal {
                applyTouchpadGesture(event, to: r)
            }
        case .end, .cancel:
            guard let existing, storage.records[existing].gestureKind == event.kind else {
                ignored("touchpad \(event.kind) \(event.phase) with no \(event.kind) under way")
                break
            }
            liftGesture(existing, with: event)
        }
    }

    private func applyTouchpadGesture(_ event: TouchpadGestureEvent, to r: RecognizerSlot) {
        let withdrawals = storage.withdrawals
        apply(withRecognizer(r) { $0.touchpadGesture(event) }, to: r, unlessWithdrawnSince: withdrawals)
    }

    private func liftGesture(_ index: Int, with event: TouchpadGestureEvent) {
        storage.records[index].lifted = true
        storage.records[index].touch.phase = event.phase == .cancel ? .cancelled : .ended
        let id = storage.records[index].touch.id
        for r in storage.table.members(of: id) where storage.table.isTracking(r, id) {
            storage.table.lift(r)
            if storage.table.records[r.rawValue].state.isFinal {
                endSequenceIfOver(r)
                continue
            }
            applyTouchpadGesture(event, to: r)
        }
    }

    // MARK: - Cancelling what is down

    func cancelTouches(at time: Instant, reason: String, where matches: (TouchRecord) -> Bool) {
        let down = storage.records.filter { !$0.lifted && matches($0) }
        guard !down.isEmpty else { return }
        ignored("\(reason): cancelling \(down.count) touch\(down.count == 1 ? "" : "es")", at: max(time, now))
        var byDevice: [InputDeviceID: TouchFrame] = [:]
        var gestures: [TouchpadGestureEvent] = []
        for record in down {
            if let last = record.gesture {
                gestures.append(last.cancelled(at: time, location: record.touch.location))
            } else {
                let d = record.touch.device
                var frame = byDevice[d] ?? TouchFrame(time: time, device: d, deviceKind: record.touch.deviceKind)
                frame.changes.append(TouchChange(sourceID: record.touch.sourceID, phase: .cancelled,
                                                 location: record.touch.location))
                byDevice[d] = frame
            }
        }
        for device in byDevice.keys.sorted() { send(byDevice[device]!) }
        for g in gestures { send(g) }
    }

    /// Puts `r` on this step's feed list, once per step (`mark`), unless it was reset since
    /// every touch of the frame began (its minimum touch id is past the newest).
    @inline(__always)
    private func feedOnce(_ r: RecognizerSlot, mark: Int, newestID: TouchID) {
        guard storage.table.records[r.rawValue].minimumTouchID <= newestID, storage.table.markOnce(r, step: mark) else { return }
        storage.feedList.append(r)
        storage.stepRecognizers.append(r)
    }

    /// The view whose touch keeps a touch landing on `view` away (`isExclusiveTouch`): a
    /// down touch on another view, when either view is exclusive-touch.
    private func exclusiveTouchBlocker(for view: View) -> View? {
        for record in storage.records where !record.lifted && record.gestureKind == nil {
            guard let other = record.view, other !== view else { continue }
            if other.isExclusiveTouch || view.isExclusiveTouch { return other }
        }
        return nil
    }

    /// Every touch the engine holds now, touchpad gestures aside (a `TouchEvent`'s
    /// `allTouches`): those down, and those that lifted in this step. GestureGTK reads it for
    /// the engine's identity of a touch it has just been given.
    package func allTouches() -> Set<Touch> {
        var all = Set<Touch>()
        for record in storage.records where record.gestureKind == nil { all.insert(record.touch) }
        return all
    }

    /// The centroid of `r`'s touches in screen points (a recognizer's default location):
    /// those still down, or, when all have lifted, where they lifted.
    func touchCentroid(of r: GestureRecognizer) -> Point? {
        let ids = sequenceTouches(of: r)
        guard !ids.isEmpty else { return nil }
        var down = Point.zero, downCount = 0.0, all = Point.zero, allCount = 0.0
        for id in ids {
            if let i = recordIndex(of: id) {
                let location = storage.records[i].touch.location
                all = all + location
                allCount += 1
                if !storage.records[i].lifted {
                    down = down + location
                    downCount += 1
                }
            } else if let lifted = storage.liftedTouches.first(where: { $0.id == id }) {
                all = all + lifted.location
                allCount += 1
            }
        }
        if downCount > 0 { return down / downCount }
        return allCount > 0 ? all / allCount : nil
    }

    /// Where touch `index` of `r`'s gesture is, in screen points (`location(ofTouch:in:)`).
    func screenLocation(ofTouch index: Int, of r: GestureRecognizer) -> Point? {
        let touches = sequenceTouches(of: r)
        guard index >= 0, index < touches.count else { return nil }
        let id = touches[index]
        if let i = recordIndex(of: id) { return storage.records[i].touch.location }
        return storage.liftedTouches.first { $0.id == id }?.location
    }

    /// `r` stops tracking touch `id` (`ignore(_:for:)`).
    func recognizer(_ recognizer: GestureRecognizer, ignores id: TouchID) {
        if storage.arbitrationDepth > 0 {
            storage.deferredChanges.append { [unowned self] in self.recognizer(recognizer, ignores: id) }
            return
        }
        guard let r = slot(of: recognizer) else { return }
        let down = recordIndex(of: id).map { !storage.records[$0].lifted } ?? false
        storage.table.ignore(id, for: r, stillDown: down)
        endSequenceIfOver(r)
    }

    /// Forgets the touches that have lifted and have nothing left for their view, and closes
    /// their arenas.
    func closeFinishedRecords() {
        var i = 0
        while i < storage.records.count {
            if storage.records[i].lifted && storage.records[i].held.isEmpty {
                let lifted = (storage.records[i].touch.id, storage.records[i].touch.location)
                if storage.liftedTouches.count < GestureEngine.liftedCapacity {
                    storage.liftedTouches.append(lifted)
                } else {
                    storage.liftedTouches[storage.liftedNext] = lifted
                }
                storage.liftedNext = (storage.liftedNext + 1) % GestureEngine.liftedCapacity
                storage.table.closeArena(storage.records[i].touch.id)
                storage.records.remove(at: i)
            } else {
                i += 1
            }
        }
    }
}

extension GestureRecognizer {
    /// Whether the recognizer sees `touch`: its type is allowed (a scroll sequence always is),
    /// and a pointer's touch has the buttons it takes (`buttonsAllowed`).
    @inline(__always)
    func allows(_ touch: Touch) -> Bool {
        if touch.deviceKind == .pointer && touch.sourceID == -1 { return true }
        guard allowedTouchTypes.contains(TouchTypes(touch.type)) else { return false }
        return touch.buttonMask.isEmpty || buttonsAllowed(touch.buttonMask)
    }
}

extension Touch {
    /// A touchpad gesture stands for a touch in arbitration (exclusivity, requirements).
    init(id: TouchID, gesture: TouchpadGestureEvent) {
        self.id = id
        self.sourceID = -1
        self.device = gesture.device
        self.deviceKind = gesture.kind.isScroll ? .pointer : .touchpad
        self.phase = .began
        self.location = gesture.location
        self.previousLocation = gesture.location
        self.initialLocation = gesture.location
        self.beganAt = gesture.time
        self.timestamp = gesture.time
        self.pointsPerMillimetre = nil
        self.buttonMask = []
        self.penSample = .upright
    }
}
