import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger

/// The App Store subscription traffic that tests the store's order: refunds (some before the
/// ledger has granted their period), upgrades to a higher level that start at once, and
/// DID_RENEW notifications the ledger must refuse without changing anything.
extension SimulationRun {
    /// Refunds a period, and sometimes delivers the REFUND more than once: usually a granted
    /// period, sometimes one sold and not granted yet (its DID_RENEW held back), whose refund must
    /// wait under the period's own key so that the period's grant takes it back at once.
    func refundPeriod(of chain: inout SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        let unrefunded = chain.periodOfTransaction.filter { !chain.refunded.contains($0.value) }
        let granted = unrefunded.filter { chain.granted[$0.value] != nil }
        let waiting = unrefunded.filter { chain.granted[$0.value] == nil }
        let pool = !waiting.isEmpty && (granted.isEmpty || random.chance(50)) ? waiting : granted
        guard let (transactionID, periodID) = pool.sorted(by: { $0.key < $1.key }).first else { return }
        try await refund(transactionID, period: periodID, of: &chain, player: player)
    }

    /// Apple refunds `transactionID` (the chain's period `periodID`) and sends its REFUND, once or
    /// more; the model notes the refund as the ledger recorded it.
    private func refund(
        _ transactionID: String, period periodID: String, of chain: inout SubscriptionTraffic.Chain, player: String
    ) async throws(SimulationViolation) {
        guard let appStore else { return }
        let wasGranted = chain.granted[periodID] != nil
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
            guard case .revocation(let revocation) = outcome, let record = revocation.record else { continue }
            if delivery > 0, chain.refunded.contains(periodID) {
                throw violation("a REFUND of \(periodID) was applied again")
            }
            switch record.disposition {
            case .applied where wasGranted, .awaitingPurchase where !wasGranted:
                chain.refunded.insert(periodID)
                note("subscription \(player) refund of \(periodID) \(record.disposition.rawValue)")
            case .applied, .awaitingPurchase:
                throw violation("the refund of \(periodID) (granted: \(wasGranted)) was \(record.disposition.rawValue)")
            default:
                note("subscription \(player) refund of \(periodID) \(record.disposition.rawValue)")
            }
        }
    }

    /// Apple renews the subscription and its DID_RENEW is late: the new period ends first, and the
    /// EXPIRED or DID_FAIL_TO_RENEW Apple signed at its end arrives before the DID_RENEW signed at
    /// the renewal. The period is granted once; the chain stays as Apple's later word left it.
    func renewLate(_ chain: inout SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        guard let appStore else { return }
        if let end = appStore.transaction(chain.latestTransactionID)?.expiresDate, end > clock.now() { clock.set(end) }
        let renewal = try sell { try appStore.renew(transactionID: chain.latestTransactionID) }
        sold(renewal, on: &chain)
        let didRenew = try sellNotification(.didRenew, renewal.transactionID)
        if let end = renewal.payload.expiresDate { clock.set(end) }
        let signedAt = clock.now()
        let ended = random.chance(50)
            ? try sell { try appStore.expire(transactionID: renewal.transactionID) }
            : try sell { try appStore.failToRenew(transactionID: renewal.transactionID) }
        note("subscription \(player) DID_RENEW of \(renewal.payload.webOrderLineItemID ?? "") arrives after the period's end")
        try await process(ended, signedAt: signedAt, apply: { $0.lapsed = true; $0.graceEnd = nil }, chain: &chain, player: player)
        try await deliverPeriod(renewal, of: &chain, player: player, notification: didRenew)
    }

    /// Apple renews the subscription and refunds the new period before the ledger has heard of it:
    /// the REFUND arrives first, the DID_RENEW (or the game's delivery, signed before the refund)
    /// after it. The refund waits under the period's key and the grant takes it back at once.
    func refundBeforeRenewal(_ chain: inout SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        guard let appStore else { return }
        if let end = appStore.transaction(chain.latestTransactionID)?.expiresDate, end > clock.now() { clock.set(end) }
        let renewal = try sell { try appStore.renew(transactionID: chain.latestTransactionID) }
        sold(renewal, on: &chain)
        guard let periodID = renewal.payload.webOrderLineItemID else { return }
        let didRenew = random.chance(50) ? try sellNotification(.didRenew, renewal.transactionID) : nil
        clock.advance(seconds: 3_600)
        note("subscription \(player) period \(periodID) refunded before its delivery")
        try await refund(renewal.transactionID, period: periodID, of: &chain, player: player)
        try await deliverPeriod(renewal, of: &chain, player: player, notification: didRenew)
    }

    /// The player upgrades to the catalog's higher level: Apple starts the new period at once,
    /// even when the current one is a year long. Delivered by DID_CHANGE_RENEWAL_PREF (UPGRADE) or
    /// the game, or held back.
    func upgrade(_ chain: inout SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        guard let appStore, let higher = subscriptionTiers.higher?.storeProductIDs[.appStore] else { return }
        guard appStore.transaction(chain.latestTransactionID)?.productID != higher else {
            return note("subscription \(player) already on \(higher)")
        }
        // A player upgrades some time into the period, never in its first instant.
        clock.advance(seconds: 3_600)
        let upgraded = try sell { try appStore.upgrade(transactionID: chain.latestTransactionID, to: higher) }
        sold(upgraded, on: &chain)
        try await deliverOrHold(upgraded, type: .didChangeRenewalPref, subtype: .upgrade, of: &chain, player: player)
    }

    /// A DID_RENEW the ledger must refuse, about the player's chain: its new period carries
    /// another subscriber's `appAccountToken`, or ends before it starts. Refused means unchanged:
    /// the chain as the ledger holds it is the same before and after.
    func sendRefusedRenewal(of chain: SubscriptionTraffic.Chain, player: String) async throws(SimulationViolation) {
        guard let appStore, let verifier = appStoreVerifier, var payload = appStore.transaction(chain.latestTransactionID),
            let other = SubscriptionTraffic.subscribers.first(where: { $0 != player })
        else { return }
        let now = clock.now()
        payload.webOrderLineItemID = "refused-\(step)"
        payload.purchaseDate = now
        payload.signedDate = now
        (payload.revocationDate, payload.revocationReason, payload.revocationType, payload.revocationPercentage) = (nil, nil, nil, nil)
        let foreign = random.chance(50)
        if foreign {
            payload.appAccountToken = AppAccountToken.forPlayer(other)
            payload.expiresDate = now.addingTimeInterval(30 * 86_400)
        } else {
            payload.expiresDate = now.addingTimeInterval(-86_400)
        }
        var notification = try sell { try appStore.notificationPayload(type: .didRenew, transactionID: chain.latestTransactionID) }
        notification.data.signedTransactionInfo = try sell { try appStore.sign(payload) }
        let signed = try sell { try appStore.sign(notification) }
        let ledger = try currentLedger()
        let key = TransactionKey(store: .appStore, transactionID: chain.originalTransactionID)
        let before = try await readChain(key, ledger: ledger)
        let outcome: AppStoreNotificationOutcome
        do throws(LedgerError) {
            outcome = try await AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger).process(signed)
        } catch {
            return note("subscription \(player) refused renewal failed: \(error.code)")
        }
        let kind = foreign ? "another account's" : "backwards"
        let refused: Bool
        switch outcome {
        case .subscription(let effect): refused = effect.period.map { $0.rejection != nil } ?? true
        case .rejected: refused = true
        default: refused = false
        }
        guard refused else { throw violation("a DID_RENEW of \(kind) period for \(player) was not refused: \(outcome.name)") }
        note("subscription \(player) \(kind) DID_RENEW: \(outcome.name)")
        if try await readChain(key, ledger: ledger) != before {
            throw violation("a refused DID_RENEW (\(kind)) changed \(player)'s chain \(key)")
        }
    }

    /// A chain as the ledger holds it, or nil.
    private func readChain(_ key: TransactionKey, ledger: Ledger) async throws(SimulationViolation) -> SubscriptionRecord? {
        do throws(LedgerError) {
            return try await ledger.subscription(key)
        } catch {
            throw violation("cannot read the chain \(key): \(error)")
        }
    }

    /// A notification of `type` about `transactionID`, signed now.
    func sellNotification(
        _ type: NotificationTypeV2, subtype: NotificationSubtype? = nil, _ transactionID: String
    ) throws(SimulationViolation) -> String {
        guard let appStore else { throw violation("no simulated App Store") }
        return try sell { try appStore.notification(type: type, subtype: subtype, transactionID: transactionID) }
    }
}
