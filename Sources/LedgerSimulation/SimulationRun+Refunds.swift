import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// Refunds, partial refunds, revokes and reversals from every store, and restores scoped to
/// the store that answered, each checked against the model: what a take-back takes under
/// clawback, what a reversal gives back, and which purchases an authoritative list revokes.
extension SimulationRun {
    /// Refunds some or all of a granted purchase through its own store's channel.
    func refund() async throws(SimulationViolation) {
        guard let (key, purchase) = pickPurchase(where: { $0.isInForce }) else { return }
        let remaining = purchase.quantity - purchase.refundedUnits
        let units = remaining > 1 && random.chance(50) ? 1 + random.below(remaining - 1) : remaining
        clock.advance(seconds: 1)
        let record: RevocationRecord
        switch key.store {
        case .appStore:
            // A prorated refund names the share of the whole quantity refunded so far, so the
            // ledger takes only what goes beyond the units already taken.
            let prorated = units < remaining
            let total = purchase.refundedUnits + units
            let percentage = prorated ? Int32(total * 100_000 / purchase.quantity) : nil
            record = try await refundThroughAppStore(key, percentage: percentage)
            try apply(record, to: key, units: prorated ? units : remaining, revoke: false)
        case .playStore:
            record = try await refundThroughPlay(key, units: units == remaining ? nil : units)
            try apply(record, to: key, units: units, revoke: false)
        default:
            let revoke = random.chance(20)
            let kind: RevocationKind = revoke ? .revoke : units == remaining ? .fullRefund : .partialRefund
            record = try await applyDirectly(
                RevocationEvent(
                    eventID: "refund-\(step)-\(key.transactionID)", store: key.store, transactionID: key.transactionID,
                    kind: kind, quantity: kind == .partialRefund ? units : nil, eventDate: clock.now()))
            try apply(record, to: key, units: units, revoke: revoke)
        }
        summary.refunds += 1
        note("refund \(key) \(units) of \(purchase.quantity) -> \(record.disposition.rawValue)")
    }

    /// Reverses the refunds of a purchase (the test store's event or the App Store's REFUND_REVERSED).
    func reverseRefund() async throws(SimulationViolation) {
        guard let (key, _) = pickPurchase(where: { !$0.takeBacks.isEmpty && $0.store != .playStore }) else { return }
        clock.advance(seconds: 1)
        let record: RevocationRecord
        if key.store == .appStore {
            record = try await notifyAppStore(.refundReversed, key)
        } else {
            record = try await applyDirectly(
                RevocationEvent(
                    eventID: "reversal-\(step)-\(key.transactionID)", store: key.store, transactionID: key.transactionID,
                    kind: .refundReversed, eventDate: clock.now()))
        }
        // A reversal of take-backs that took nothing gives nothing back: noChange, never stale.
        guard record.disposition == .applied || record.disposition == .noChange,
            let given = model.reverse(key, at: record.event.eventDate)
        else {
            throw violation("reversal of \(key) was \(record.disposition.rawValue)")
        }
        try expectEffect(record, currencies: given.currencies, items: given.items, sign: 1, of: key)
        summary.reversals += 1
        note("reverse \(key)")
    }

    /// A "Restore Purchases" answered by one store: the player's non-consumables of that store,
    /// maybe with one left out. An authoritative answer revokes only that one, and only if it
    /// was fulfilled (and not reinstated) before the list was read; every other store's
    /// purchases stay. Some answers are stale: read an hour before they arrive.
    func restoreFromStore() async throws(SimulationViolation) {
        let player = random.pick(players)
        let store = random.pick([PlatformStore.test, .appStore, .playStore])
        var owned = model.fulfilled.filter {
            $0.value.playerID == player && $0.value.store == store && $0.value.isInForce
                && options.catalog.product(id: $0.value.productID)?.kind == .nonConsumable
        }.keys.sorted()
        let omitted = !owned.isEmpty && random.chance(30) ? owned.remove(at: random.below(owned.count)) : nil
        let listed = owned.compactMap { key in deliveries.first { purchaseKey(of: $0.submission.key) == key }?.submission }
        guard listed.count == owned.count else { throw violation("no delivery is remembered for a purchase of \(player)") }
        clock.advance(seconds: 1)
        let readAt = random.chance(30) ? clock.now().addingTimeInterval(-3_600) : clock.now()
        let expectedRevoked = omitted.flatMap { key -> [TransactionKey]? in
            guard let purchase = model.fulfilled[key], purchase.fulfilledAt <= readAt,
                (purchase.lastReversalAt.map { $0 <= readAt } ?? true)
            else { return nil }
            return [key]
        } ?? []
        let ledger = try currentLedger()
        let report: RestoreReport
        do throws(LedgerError) {
            report = try await ledger.restore(
                playerID: player,
                query: .answered(store: store, transactions: listed, authoritativeAsOf: readAt))
        } catch {
            throw violation("restore from \(store) failed: \(error)")
        }
        guard report.errors.isEmpty, report.outcomes.values.allSatisfy({ $0.name == "alreadyFulfilled" }) else {
            throw violation("restore from \(store) for \(player): \(report)")
        }
        guard report.revoked == expectedRevoked else {
            throw violation("restore from \(store) read at \(readAt) revoked \(report.revoked), expected \(expectedRevoked)")
        }
        if let omitted = expectedRevoked.first {
            let records: [RevocationRecord]
            do throws(LedgerError) {
                records = try await ledger.store.read { reader throws(LedgerError) in
                    try reader.revocationEvents(for: omitted, limit: 1_000)
                }
            } catch {
                throw violation("cannot read the revoke of \(omitted): \(error)")
            }
            guard let record = records.last else { throw violation("the revoke of \(omitted) was not stored") }
            let units = model.fulfilled[omitted].map { $0.quantity - $0.refundedUnits } ?? 0
            try apply(record, to: omitted, units: units, revoke: true)
            summary.restoreRevokes += 1
        }
        summary.scopedRestores += 1
        note("restore \(player) from \(store): \(listed.count) listed, revoked \(report.revoked)")
    }

    // MARK: Channels

    private func refundThroughAppStore(
        _ key: TransactionKey, percentage: Int32?
    ) async throws(SimulationViolation) -> RevocationRecord {
        guard let appStore else { throw violation("no simulated App Store for \(key)") }
        do {
            _ = try appStore.revoke(
                transactionID: key.transactionID, type: percentage == nil ? .refundFull : .refundProrated,
                percentage: percentage, at: clock.now())
        } catch {
            throw violation("the simulated App Store could not refund \(key): \(error)")
        }
        return try await notifyAppStore(.refund, key)
    }

    private func notifyAppStore(_ type: NotificationTypeV2, _ key: TransactionKey) async throws(SimulationViolation)
        -> RevocationRecord
    {
        guard let appStore, let appStoreVerifier else { throw violation("no simulated App Store for \(key)") }
        let signed: String
        do {
            signed = try appStore.notification(type: type, transactionID: key.transactionID, at: clock.now())
        } catch {
            throw violation("the simulated App Store could not sign a \(type.rawValue): \(error)")
        }
        let processor = AppStoreNotificationProcessor(signedDataVerifier: appStoreVerifier, ledger: try currentLedger())
        let outcome: AppStoreNotificationOutcome
        do throws(LedgerError) {
            outcome = try await processor.process(signed)
        } catch {
            throw violation("the \(type.rawValue) of \(key) failed: \(error)")
        }
        guard case .revocation(let revocation) = outcome, let record = revocation.record else {
            throw violation("the \(type.rawValue) of \(key) gave \(outcome)")
        }
        return record
    }

    private func refundThroughPlay(_ key: TransactionKey, units: Int?) async throws(SimulationViolation) -> RevocationRecord {
        let voided = playStore.void(token: key.transactionID, quantity: units, at: clock.now())
        let ledger = try currentLedger()
        let report: VoidedSyncReport
        let eventID: String
        do throws(LedgerError) {
            report = try await VoidedPurchasesSync(api: playStore, packageName: Self.appStoreBundleID, ledger: ledger).run()
        } catch {
            throw violation("the voided-purchases sync failed: \(error)")
        }
        do throws(PlayPayloadError) {
            eventID = try PlayVoidedEvent.event(for: voided).eventID
        } catch {
            throw violation("the simulated Play voided record of \(key) is invalid: \(error)")
        }
        let record: RevocationRecord?
        do throws(LedgerError) {
            record = try await ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: eventID) }
        } catch {
            throw violation("cannot read the void of \(key): \(error)")
        }
        guard report.rejected.isEmpty, report.invalid.isEmpty, let record else {
            throw violation("the sync did not apply the void of \(key): \(report)")
        }
        return record
    }

    private func applyDirectly(_ event: RevocationEvent) async throws(SimulationViolation) -> RevocationRecord {
        let ledger = try currentLedger()
        let outcome: RevocationOutcome
        do throws(LedgerError) {
            outcome = try await ledger.applyRevocation(event)
        } catch {
            throw violation("\(event.eventID) failed: \(error)")
        }
        guard let record = outcome.record else { throw violation("\(event.eventID) was rejected: \(outcome)") }
        return record
    }

    // MARK: Checks

    /// Applies a take-back to the model and checks the ledger did the same: under clawback,
    /// exactly the refunded share of each currency, items while held, and an entitlement lost
    /// exactly when no purchase in force pays for it any more.
    func apply(
        _ record: RevocationRecord, to key: TransactionKey, units: Int, revoke: Bool
    ) throws(SimulationViolation) {
        guard let before = model.fulfilled[key] else { throw violation("refund of \(key), which the model never granted") }
        let ownedBefore = model.entitlements(of: before.playerID, catalog: options.catalog)
        guard
            let taken = model.takeBack(
                key, units: units, revoke: revoke, eventID: record.event.eventID, catalog: options.catalog,
                at: record.receivedAt)
        else { throw violation("refund of \(key), which is no longer in force") }
        try expectEffect(record, currencies: taken.currencies, items: taken.items, sign: -1, of: key)
        let ownedAfter = model.entitlements(of: before.playerID, catalog: options.catalog)
        let lost = Set(record.effect.filter { $0.kind == .entitlement && $0.quantity < 0 }.map(\.id))
        guard lost == ownedBefore.subtracting(ownedAfter) else {
            throw violation("refund of \(key) took entitlements \(lost); the model lost \(ownedBefore.subtracting(ownedAfter))")
        }
        guard record.debtCreated == taken.debt.filter({ $0.value > 0 }) else {
            throw violation("refund of \(key) left debt \(record.debtCreated); the model \(taken.debt)")
        }
    }

    private func expectEffect(
        _ record: RevocationRecord, currencies: [String: Int64], items: [String: Int64], sign: Int64,
        of key: TransactionKey
    ) throws(SimulationViolation) {
        var actualCurrencies: [String: Int64] = [:]
        var actualItems: [String: Int64] = [:]
        for line in record.effect {
            switch line.kind {
            case .currency: actualCurrencies[line.id, default: 0] += sign * line.quantity
            case .item: actualItems[line.id, default: 0] += sign * line.quantity
            case .entitlement: continue
            }
        }
        guard actualCurrencies == currencies.filter({ $0.value != 0 }), actualItems == items.filter({ $0.value != 0 }) else {
            throw violation(
                "\(record.event.kind.rawValue) of \(key) moved \(actualCurrencies) \(actualItems); the model \(currencies) \(items)")
        }
    }

    /// A random granted purchase meeting `condition`, in a seed-stable order.
    private func pickPurchase(
        where condition: (SimulationModel.Purchase) -> Bool
    ) -> (TransactionKey, SimulationModel.Purchase)? {
        // Stripe's and Steam's take-backs are their own traffic's (SimulationRun+Stripe, +Steam).
        let candidates = model.fulfilled.filter { $0.key.store != .stripe && $0.key.store != .steam && condition($0.value) }
            .sorted { $0.key < $1.key }
        guard !candidates.isEmpty else { return nil }
        let picked = candidates[random.below(candidates.count)]
        return (picked.key, picked.value)
    }

    /// Every entitlement is owned exactly while some purchase in force pays for it, and the
    /// ledger names the same purchases as paying.
    func checkEntitlementPayments(_ ledger: Ledger, player: String) async throws(SimulationViolation) {
        let snapshot: EntitlementSnapshot
        do throws(LedgerError) {
            snapshot = try await ledger.entitlements(player)
        } catch {
            throw violation("cannot read the entitlements of \(player): \(error)")
        }
        var expected: [String: Set<TransactionKey>] = [:]
        for (key, purchase) in model.fulfilled where purchase.playerID == player && purchase.isInForce {
            for line in options.catalog.product(id: purchase.productID)?.rewards.lines ?? [] where line.kind == .entitlement {
                expected[line.id, default: []].insert(key)
            }
        }
        let actual = snapshot.paidBy.mapValues(Set.init)
        guard actual == expected else {
            throw violation("\(player)'s entitlements are paid for by \(actual); the model says \(expected)")
        }
    }
}
