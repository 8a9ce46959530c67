import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger

/// Subscription traffic: App Store subscriptions sold, renewed (by the game's delivery or a
/// DID_RENEW notification), restored, failed with and without grace, expired and refunded, with
/// notifications sometimes late. Its invariants are checked after every step.
extension SimulationRun {
    /// The catalog's App Store subscription the traffic sells, if it has one.
    var subscriptionProduct: Product? {
        options.catalog.products.first { $0.kind == .autoRenewable && $0.storeProductIDs[.appStore] != nil }
    }

    /// One subscription action.
    func subscriptionStep() async throws(SimulationViolation) {
        guard let appStore, let product = subscriptionProduct, let storeProductID = product.storeProductIDs[.appStore] else {
            return
        }
        let player = random.pick(SubscriptionTraffic.subscribers)
        guard var chain = subscriptions.chains[player] else {
            let signed = try sell { try appStore.purchase(
                productID: storeProductID, appAccountToken: AppAccountToken.forPlayer(player), type: .autoRenewableSubscription) }
            var chain = SubscriptionTraffic.Chain(
                originalTransactionID: signed.payload.originalTransactionID, latestTransactionID: signed.transactionID)
            chain.periodOfTransaction[signed.transactionID] = signed.payload.webOrderLineItemID
            try await deliverPeriod(signed, of: &chain, player: player, byNotification: false)
            subscriptions.chains[player] = chain
            return
        }
        switch random.below(100) {
        case 0..<30:
            // The period ends and Apple renews it: a new period, delivered by notification or the game.
            if let end = appStore.transaction(chain.latestTransactionID)?.expiresDate, end > clock.now() {
                clock.set(end)
            }
            let renewal = try sell { try appStore.renew(transactionID: chain.latestTransactionID) }
            chain.latestTransactionID = renewal.transactionID
            chain.periodOfTransaction[renewal.transactionID] = renewal.payload.webOrderLineItemID
            try await deliverPeriod(renewal, of: &chain, player: player, byNotification: random.chance(60))
        case 30..<42:
            // A restore or a new device: a new transactionId for a period already sold.
            let transactionID = random.pick(chain.periodOfTransaction.keys.sorted())
            let restored = try sell { try appStore.restore(transactionID: transactionID) }
            try await deliverPeriod(restored, of: &chain, player: player, byNotification: false)
        case 42..<57:
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
        case 57..<67:
            let signedAt = clock.now()
            let payload = try sell { try appStore.expire(transactionID: chain.latestTransactionID) }
            try await notify(
                player: player, payload: payload, signedAt: signedAt, apply: { $0.lapsed = true; $0.graceEnd = nil },
                chain: &chain, delay: random.chance(20))
        case 67..<82:
            try await refundPeriod(of: &chain, player: player)
        case 82..<90:
            try await deliverDelayed(chainOf: player, into: &chain)
        default:
            let seconds = random.pick([3_600, 86_400, 10 * 86_400, 40 * 86_400])
            clock.advance(seconds: TimeInterval(seconds))
            note("subscription clock +\(seconds)s")
        }
        subscriptions.chains[player] = chain
    }

    /// A store call of the simulator; a failure is a broken simulation, not a ledger violation.
    private func sell<T>(_ body: () throws -> T) throws(SimulationViolation) -> T {
        do {
            return try body()
        } catch {
            throw violation("the simulated App Store failed: \(error)")
        }
    }

    /// Delivers a period's transaction by the game or by a DID_RENEW notification, once more if the
    /// first attempt met an injected fault, and records what the ledger granted.
    private func deliverPeriod(
        _ signed: SignedAppStoreTransaction, of chain: inout SubscriptionTraffic.Chain, player: String, byNotification: Bool
    ) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        guard let periodID = signed.payload.webOrderLineItemID, let end = signed.payload.expiresDate else {
            throw violation("the simulated App Store sold a subscription without its period")
        }
        guard let verifier = appStoreVerifier else { throw violation("no simulated App Store verifier") }
        let payload = byNotification ? try sellNotification(.didRenew, signed.transactionID) : ""
        guard let submission = AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player) else {
            throw violation("the simulated App Store signed an unreadable subscription")
        }
        var outcome: FulfillmentOutcome?
        var unknownChain = false
        for _ in 0..<2 where outcome == nil && !unknownChain {
            do throws(LedgerError) {
                if byNotification {
                    let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
                    if case .subscription(let effect) = try await processor.process(payload) {
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
        if unknownChain { return note("subscription \(player) DID_RENEW \(periodID): no period (unknown chain)") }
        guard let outcome else { return }
        note("subscription \(player) period \(periodID) \(byNotification ? "by notification" : "delivered"): \(outcome.name)")
        switch outcome {
        case .granted:
            guard chain.granted[periodID] == nil else { throw violation("period \(periodID) of \(player) granted twice") }
            let wasLatest = chain.latestEnd.map { end > $0 } ?? true
            chain.granted[periodID] = end
            summary.subscriptionPeriods += 1
            if wasLatest {
                chain.lapsed = false
                chain.graceEnd = nil
                chain.stateSignedAt = max(chain.stateSignedAt, signed.payload.purchaseDate)
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
        if delay {
            subscriptions.delayed.append((player, payload, signedAt, apply))
            return note("subscription \(player) notification held back")
        }
        try await process(payload, signedAt: signedAt, apply: apply, chain: &chain, player: player)
    }

    private func deliverDelayed(chainOf player: String, into chain: inout SubscriptionTraffic.Chain) async throws(SimulationViolation) {
        guard let index = subscriptions.delayed.firstIndex(where: { $0.player == player }) else { return }
        let held = subscriptions.delayed.remove(at: index)
        try await process(held.payload, signedAt: held.signedAt, apply: held.apply, chain: &chain, player: player)
    }

    private func process(
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

    /// Refunds a granted period, and sometimes delivers the REFUND twice.
    private func refundPeriod(of chain: inout SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        guard let appStore else { return }
        let candidates = chain.periodOfTransaction.filter { chain.granted[$0.value] != nil && !chain.refunded.contains($0.value) }
        guard let (transactionID, periodID) = candidates.sorted(by: { $0.key < $1.key }).first else { return }
        _ = try sell { try appStore.revoke(transactionID: transactionID) }
        let payload = try sellNotification(.refund, transactionID)
        let ledger = try currentLedger()
        guard let verifier = appStoreVerifier else { throw violation("no simulated App Store verifier") }
        for delivery in 0..<(random.chance(30) ? 3 : 2) {
            let outcome: AppStoreNotificationOutcome
            do throws(LedgerError) {
                outcome = try await AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger).process(payload)
            } catch {
                note("subscription \(player) refund failed: \(error.code)")
                continue
            }
            guard case .revocation(let revocation) = outcome else { continue }
            if delivery > 0, !chain.refunded.isEmpty, chain.refunded.contains(periodID) {
                throw violation("a REFUND of \(periodID) was applied again")
            }
            if revocation.record?.disposition == .applied {
                chain.refunded.insert(periodID)
                note("subscription \(player) refund of \(periodID) applied")
            }
        }
    }

    private func sellNotification(_ type: NotificationTypeV2, _ transactionID: String) throws(SimulationViolation) -> String {
        guard let appStore else { throw violation("no simulated App Store") }
        return try sell { try appStore.notification(type: type, transactionID: transactionID) }
    }

    /// The four subscription invariants, at the clock's now, for the App Store subscribers and the
    /// Play subscribers alike.
    func checkSubscriptionInvariants() async throws(SimulationViolation) {
        try await checkPlaySubscriptionInvariants()
        guard let product = subscriptionProduct else { return }
        let now = clock.now()
        for player in SubscriptionTraffic.subscribers {
            let chain = subscriptions.chains[player]
            let bound = [chain?.latestEnd, chain?.graceEnd].compactMap { $0 }.max()
            let (readings, snapshot, entitled) = try await checkSubscriber(
                player, product: product, granted: Set(chain?.granted.keys.map { $0 } ?? []),
                refundedCount: chain?.refunded.count ?? 0, bound: bound)
            // At most one active entitlement per chain.
            for line in product.rewards.lines where (snapshot.paidBy[line.id]?.count ?? 0) > readings.count {
                throw violation("\(player): \(line.id) is paid by \(snapshot.paidBy[line.id] ?? []) from \(readings.count) chain(s)")
            }
            // And entitled while the latest period runs, unrefunded and not lapsed.
            if let chain, let latest = chain.latestPeriodID, let end = chain.latestEnd, now < end, !chain.lapsed,
                !chain.refunded.contains(latest), !entitled
            {
                throw violation("\(player) is not entitled at \(now) inside period \(latest), which ends \(end)")
            }
        }
    }

    /// The invariants every subscriber keeps, whichever store sold the subscription: each period in
    /// `granted` held once and nothing else, gems for exactly the unrefunded periods, and no
    /// entitlement at or past `bound` (the latest end, grace included, the ledger can know of).
    /// Returns the subscriber's chains, entitlements and whether `product` entitles them now.
    func checkSubscriber(
        _ player: String, product: Product, granted: Set<String>, refundedCount: Int, bound: Date?
    ) async throws(SimulationViolation) -> (readings: [SubscriptionReading], snapshot: EntitlementSnapshot, entitled: Bool) {
        let ledger = try currentLedger()
        let now = clock.now()
        let amount = product.periodRewards?.lines.first { $0.kind == .currency }
        let (readings, snapshot, gems): ([SubscriptionReading], EntitlementSnapshot, Int64)
        do throws(LedgerError) {
            readings = try await ledger.subscriptions(player)
            snapshot = try await ledger.entitlements(player)
            gems = try await ledger.player(player).balances[amount?.id ?? ""] ?? 0
        } catch {
            throw violation("cannot read \(player)'s subscriptions: \(error)")
        }
        let periods = readings.flatMap(\.periods).map(\.periodID)
        // Each paid period granted exactly once.
        guard periods.count == Set(periods).count, Set(periods) == granted,
            readings.map(\.subscription.periodCount).reduce(0, +) == granted.count
        else { throw violation("\(player): the ledger holds periods \(periods.sorted()); the model granted \(granted.sorted())") }
        // A refunded period's rewards taken back once.
        let kept = Int64(granted.count - refundedCount)
        if let amount, gems != kept * amount.quantity {
            throw violation("\(player) holds \(gems) \(amount.id); \(kept) unrefunded period(s) grant \(kept * amount.quantity)")
        }
        // Never entitled past expiry plus grace.
        let entitled = product.rewards.lines.contains { snapshot.statuses[$0.id] == .owned }
        if entitled, bound.map({ now >= $0 }) ?? true {
            throw violation("\(player) is entitled at \(now) past the end \(String(describing: bound)) plus grace")
        }
        return (readings, snapshot, entitled)
    }
}
