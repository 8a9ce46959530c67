import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger

/// Subscription traffic: App Store subscriptions sold (monthly or, where the catalog has one, a
/// longer plan), renewed (by the game's delivery or a DID_RENEW notification), upgraded to a higher
/// level, restored, failed with and without grace, expired and refunded, with notifications late
/// and out of order (a DID_RENEW after an EXPIRED Apple signed later), refunds before their
/// periods, and notifications the ledger must refuse. Its invariants are checked after every step.
extension SimulationRun {
    /// The catalog's App Store subscription the traffic sells, if it has one.
    var subscriptionProduct: Product? {
        options.catalog.products.first { $0.kind == .autoRenewable && $0.storeProductIDs[.appStore] != nil }
    }

    /// The other App Store subscriptions of `subscriptionProduct`'s group: a longer plan (the same
    /// entitlements; the simulated App Store sells it by the year) and a higher level (more
    /// entitlements), the upgrade's target. Either may be absent from a catalog.
    var subscriptionTiers: (longer: Product?, higher: Product?) {
        guard let base = subscriptionProduct else { return (nil, nil) }
        let entitlements = Set(base.rewards.lines.filter { $0.kind == .entitlement }.map(\.id))
        let group = options.catalog.products.filter {
            $0.kind == .autoRenewable && $0.id != base.id && $0.subscriptionGroup == base.subscriptionGroup
                && $0.storeProductIDs[.appStore] != nil
        }
        func entitlementIDs(_ product: Product) -> Set<String> {
            Set(product.rewards.lines.filter { $0.kind == .entitlement }.map(\.id))
        }
        return (
            group.first { entitlementIDs($0) == entitlements },
            group.first { entitlementIDs($0).isStrictSuperset(of: entitlements) }
        )
    }

    /// The catalog product the App Store sells as `storeProductID`.
    func subscriptionProduct(storeProductID: String) -> Product? {
        options.catalog.product(store: .appStore, storeProductID: storeProductID)
    }

    /// One subscription action.
    func subscriptionStep() async throws(SimulationViolation) {
        guard let appStore, let product = subscriptionProduct, let storeProductID = product.storeProductIDs[.appStore] else {
            return
        }
        let player = random.pick(SubscriptionTraffic.subscribers)
        guard var chain = subscriptions.chains[player] else {
            // Where the catalog has a longer plan, half the subscribers buy it.
            let longer = subscriptionTiers.longer?.storeProductIDs[.appStore]
            let bought = longer != nil && random.chance(50) ? longer! : storeProductID
            let signed = try sell { try appStore.purchase(
                productID: bought, appAccountToken: AppAccountToken.forPlayer(player), type: .autoRenewableSubscription) }
            var chain = SubscriptionTraffic.Chain(
                originalTransactionID: signed.payload.originalTransactionID, latestTransactionID: signed.transactionID)
            sold(signed, on: &chain)
            try await deliverPeriod(signed, of: &chain, player: player, byNotification: false)
            subscriptions.chains[player] = chain
            return
        }
        switch random.below(100) {
        case 0..<20:
            // The period ends and Apple renews it: a new period, delivered by notification or the
            // game, or its DID_RENEW held back to arrive late.
            if let end = appStore.transaction(chain.latestTransactionID)?.expiresDate, end > clock.now() {
                clock.set(end)
            }
            let renewal = try sell { try appStore.renew(transactionID: chain.latestTransactionID) }
            sold(renewal, on: &chain)
            try await deliverOrHold(renewal, type: .didRenew, of: &chain, player: player)
        case 20..<27:
            try await renewLate(&chain, player: player)
        case 27..<33:
            try await refundBeforeRenewal(&chain, player: player)
        case 33..<40:
            // A restore or a new device: a new transactionId for a period already sold (not one
            // refunded before the ledger granted it: Apple restores no refunded transaction).
            let restorable = chain.periodOfTransaction.filter { !chain.refunded.contains($0.value) || chain.granted[$0.value] != nil }
            guard !restorable.isEmpty else { return }
            let transactionID = random.pick(restorable.keys.sorted())
            let restored = try sell { try appStore.restore(transactionID: transactionID) }
            try await deliverPeriod(restored, of: &chain, player: player, byNotification: false)
        case 40..<50:
            // The renewal fails, with or without a grace period; sometimes the notification is late.
            if let end = appStore.transaction(chain.latestTransactionID)?.expiresDate, end > clock.now() {
                clock.set(end)
            }
            let graceDays = random.chance(50) ? random.pick([3, 6, 16]) : nil
            let signedAt = clock.now()
            let payload = try sell { try appStore.failToRenew(transactionID: chain.latestTransactionID, gracePeriodDays: graceDays) }
            let graceEnd = graceDays.map { clock.now().addingTimeInterval(TimeInterval($0) * 86_400) }
            let apply: (inout SubscriptionTraffic.Chain) -> Void = { chain in
                chain.lapsed = true
                chain.graceEnd = graceEnd
            }
            try await notify(player: player, payload: payload, signedAt: signedAt, apply: apply, chain: &chain, delay: random.chance(30))
        case 50..<57:
            let signedAt = clock.now()
            let payload = try sell { try appStore.expire(transactionID: chain.latestTransactionID) }
            try await notify(
                player: player, payload: payload, signedAt: signedAt, apply: { $0.lapsed = true; $0.graceEnd = nil },
                chain: &chain, delay: random.chance(20))
        case 57..<67:
            try await refundPeriod(of: &chain, player: player)
        case 67..<76:
            try await deliverDelayed(chainOf: player, into: &chain)
        case 76..<84:
            try await upgrade(&chain, player: player)
        case 84..<89:
            try await sendRefusedRenewal(of: chain, player: player)
        default:
            let seconds = random.pick([3_600, 86_400, 10 * 86_400, 40 * 86_400])
            clock.advance(seconds: TimeInterval(seconds))
            note("subscription clock +\(seconds)s")
        }
        subscriptions.chains[player] = chain
    }

    /// Records a transaction the store sold on the chain: its period, product and start.
    func sold(_ signed: SignedAppStoreTransaction, on chain: inout SubscriptionTraffic.Chain) {
        chain.latestTransactionID = signed.transactionID
        guard let periodID = signed.payload.webOrderLineItemID else { return }
        chain.periodOfTransaction[signed.transactionID] = periodID
        chain.productOfPeriod[periodID] = subscriptionProduct(storeProductID: signed.payload.productID)?.id
        chain.startOfPeriod[periodID] = signed.payload.purchaseDate
    }

    /// Delivers a newly sold period by the game or by a notification of `type`, or holds the
    /// notification back (signed now) to deliver it at a later step.
    func deliverOrHold(
        _ signed: SignedAppStoreTransaction, type: NotificationTypeV2, subtype: NotificationSubtype? = nil,
        of chain: inout SubscriptionTraffic.Chain, player: String
    ) async throws(SimulationViolation) {
        guard random.chance(60) else { return try await deliverPeriod(signed, of: &chain, player: player, byNotification: false) }
        let payload = try sellNotification(type, subtype: subtype, signed.transactionID)
        if random.chance(25), subscriptions.delayedPeriods.count < SubscriptionTraffic.heldNotificationCountMax {
            subscriptions.delayedPeriods.append((player, signed, payload))
            return note("subscription \(player) \(type.rawValue) \(signed.payload.webOrderLineItemID ?? "") held back")
        }
        try await deliverPeriod(signed, of: &chain, player: player, notification: payload)
    }

    /// A store call of the simulator; a failure is a broken simulation, not a ledger violation.
    func sell<T>(_ body: () throws -> T) throws(SimulationViolation) -> T {
        do {
            return try body()
        } catch {
            throw violation("the simulated App Store failed: \(error)")
        }
    }

    /// Delivers a period's transaction by the game, or by a DID_RENEW notification signed now.
    func deliverPeriod(
        _ signed: SignedAppStoreTransaction, of chain: inout SubscriptionTraffic.Chain, player: String, byNotification: Bool
    ) async throws(SimulationViolation) {
        let payload = byNotification ? try sellNotification(.didRenew, signed.transactionID) : nil
        try await deliverPeriod(signed, of: &chain, player: player, notification: payload)
    }

    /// Delivers a period's transaction by the game or by `notification` (signed by the store, with
    /// the period's transaction inside), once more if the first attempt met an injected fault, and
    /// records what the ledger granted.
    func deliverPeriod(
        _ signed: SignedAppStoreTransaction, of chain: inout SubscriptionTraffic.Chain, player: String, notification: String?
    ) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        guard let periodID = signed.payload.webOrderLineItemID, let end = signed.payload.expiresDate else {
            throw violation("the simulated App Store sold a subscription without its period")
        }
        guard let verifier = appStoreVerifier else { throw violation("no simulated App Store verifier") }
        guard let submission = AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player) else {
            throw violation("the simulated App Store signed an unreadable subscription")
        }
        var outcome: FulfillmentOutcome?
        var unknownChain = false
        for _ in 0..<2 where outcome == nil && !unknownChain {
            do throws(LedgerError) {
                if let notification {
                    let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
                    if case .subscription(let effect) = try await processor.process(notification) {
                        outcome = effect.period
                        unknownChain = effect.period == nil
                    }
                } else {
                    outcome = try await ledger.fulfill(submission)
                }
            } catch {
                note("subscription \(player) \(periodID) failed: \(error.code)")
            }
        }
        if unknownChain { return note("subscription \(player) notification of \(periodID): no period (unknown chain)") }
        guard let outcome else { return }
        note("subscription \(player) period \(periodID) \(notification != nil ? "by notification" : "delivered"): \(outcome.name)")
        switch outcome {
        case .granted:
            guard chain.granted[periodID] == nil else { throw violation("period \(periodID) of \(player) granted twice") }
            let start = signed.payload.purchaseDate
            let becomesLatest = chain.supersedes(start: start, end: end)
            chain.granted[periodID] = end
            summary.subscriptionPeriods += 1
            // The ledger makes the chain active only for a newer period whose facts are no older
            // than the store's last word on the chain (an expiry signed later stands).
            if becomesLatest, start.truncatedToLedgerMilliseconds >= chain.stateSignedAt.truncatedToLedgerMilliseconds {
                chain.lapsed = false
                chain.graceEnd = nil
                chain.stateSignedAt = max(chain.stateSignedAt, start)
            }
        case .alreadyFulfilled:
            guard chain.granted[periodID] != nil else {
                throw violation("period \(periodID) of \(player) answered alreadyFulfilled but was never granted")
            }
        case .rejected(let rejection):
            throw violation("period \(periodID) of \(player) rejected: \(rejection)")
        }
    }

    /// Applies (now, or later when `delay`) a state notification the store signed at `signedAt`.
    private func notify(
        player: String, payload: String, signedAt: Date, apply: @escaping (inout SubscriptionTraffic.Chain) -> Void,
        chain: inout SubscriptionTraffic.Chain, delay: Bool
    ) async throws(SimulationViolation) {
        if delay, subscriptions.delayed.count < SubscriptionTraffic.heldNotificationCountMax {
            subscriptions.delayed.append((player, payload, signedAt, apply))
            return note("subscription \(player) notification held back")
        }
        try await process(payload, signedAt: signedAt, apply: apply, chain: &chain, player: player)
    }

    /// Delivers one notification held back for `player`: a state notification or one carrying a
    /// period, whichever the roll picks when both wait.
    private func deliverDelayed(chainOf player: String, into chain: inout SubscriptionTraffic.Chain) async throws(SimulationViolation) {
        let state = subscriptions.delayed.firstIndex { $0.player == player }
        let period = subscriptions.delayedPeriods.firstIndex { $0.player == player }
        if let period, state == nil || random.chance(50) {
            let held = subscriptions.delayedPeriods.remove(at: period)
            return try await deliverPeriod(held.signed, of: &chain, player: player, notification: held.payload)
        }
        guard let state else { return }
        let held = subscriptions.delayed.remove(at: state)
        try await process(held.payload, signedAt: held.signedAt, apply: held.apply, chain: &chain, player: player)
    }

    func process(
        _ payload: String, signedAt: Date, apply: (inout SubscriptionTraffic.Chain) -> Void,
        chain: inout SubscriptionTraffic.Chain, player: String
    ) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        guard let verifier = appStoreVerifier else { throw violation("no simulated App Store verifier") }
        for _ in 0..<2 {
            let outcome: AppStoreNotificationOutcome
            do throws(LedgerError) {
                outcome = try await AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger).process(payload)
            } catch {
                note("subscription \(player) notification failed: \(error.code)")
                continue
            }
            guard case .subscription(let effect) = outcome else {
                throw violation("a subscription notification was taken as \(outcome.name)")
            }
            note("subscription \(player) \(effect.note)")
            summary.subscriptionNotifications += 1
            // The ledger applies facts signed at or after the chain's last change; so does the model.
            if signedAt.truncatedToLedgerMilliseconds >= chain.stateSignedAt.truncatedToLedgerMilliseconds {
                apply(&chain)
                chain.stateSignedAt = signedAt
            }
            return
        }
    }
}
