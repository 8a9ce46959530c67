import Foundation

/// The result of submitting a revocation event.
public enum RevocationOutcome: Hashable, Sendable {
    /// Recorded now; the record's disposition says whether it changed anything.
    case recorded(RevocationRecord)
    /// The event ID was already recorded with the same content; nothing changed now.
    case alreadyRecorded(RevocationRecord)
    /// Refused; nothing changed.
    case rejected(Rejection)

    /// The stored record, unless rejected.
    public var record: RevocationRecord? {
        switch self {
        case .recorded(let record), .alreadyRecorded(let record): record
        case .rejected: nil
        }
    }

    /// The rejection, if rejected.
    public var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}

/// Refunds, revokes and reversals: each event applied exactly once, in one store
/// transaction with its event-log entries, in store-date order.
extension Ledger {
    /// Applies a refund, partial refund, revoke or reversal. Idempotent by event ID.
    ///
    /// What is taken back is read from the ledger record, never from the current catalog.
    /// An event older (by store date) than one of the opposite kind already applied is
    /// stale and changes nothing, so late deliveries never overwrite newer state.
    public func applyRevocation(_ event: RevocationEvent) async throws(LedgerError) -> RevocationOutcome {
        let start = ContinuousClock.now
        do throws(LedgerError) {
            let outcome = try await runRevocation(event)
            observe(
                .revocation(
                    eventID: event.eventID, transaction: TransactionKey(store: event.store, transactionID: event.transactionID),
                    outcome: outcome),
                since: start)
            return outcome
        } catch {
            observe(.failure(operation: "applyRevocation", error: error), since: start)
            throw error
        }
    }

    /// The revocation itself, unobserved.
    private func runRevocation(_ event: RevocationEvent) async throws(LedgerError) -> RevocationOutcome {
        try checkLength(event.eventID, "eventID", max: configuration.eventIDByteCountMax)
        try checkStore(event.store)
        try checkTransactionID(event.transactionID)
        if let original = event.originalTransactionID { try checkTransactionID(original, "originalTransactionID") }
        try checkDate(event.eventDate, "eventDate")
        guard RevocationKind.supported.contains(event.kind) else {
            return .rejected(Rejection(.unsupportedEvent, "revocation kind \(event.kind) is not supported"))
        }
        if event.kind == .partialRefund {
            guard let quantity = event.quantity, quantity >= 1, quantity <= configuration.quantityMax else {
                return .rejected(Rejection(.invalidQuantity, "a partialRefund needs a quantity of 1 to \(configuration.quantityMax)"))
            }
        }
        let catalog = self.catalog
        let now = clock.now()
        return try await commit { writer throws(LedgerError) -> RevocationOutcome in
            if let existing = try writer.revocationEvent(id: event.eventID) {
                guard existing.event == event else {
                    return .rejected(Rejection(.conflictEvent, "event \(event.eventID) was recorded with other content"))
                }
                return .alreadyRecorded(existing)
            }
            let found = try writer.purchase(
                store: event.store, transactionID: event.transactionID, originalTransactionID: event.originalTransactionID)
            var record = RevocationRecord(
                event: event, purchase: found?.key, disposition: .awaitingPurchase, effect: [], debtCreated: [:],
                receivedAt: now, reversed: false)
            guard let transaction = found else {
                // Kept, and applied in date order when the purchase is fulfilled.
                try writer.insertRevocationEvent(record)
                return .recorded(record)
            }
            record = try self.apply(record, to: transaction, catalog: catalog, now: now, writer: writer)
            try writer.insertRevocationEvent(record)
            return .recorded(record)
        }
    }

    /// Applies events that arrived before their purchase, right after it is recorded.
    func applyAwaitingRevocations(
        for transaction: TransactionRecord, catalog: ProductCatalog, now: Date, writer: LedgerWriter
    ) throws(LedgerError) {
        let waiting = try writer.revocationEvents(for: transaction.key, limit: configuration.revocationEventCountMax)
            .filter { $0.disposition == .awaitingPurchase }
        for stored in waiting {
            let applied = try apply(stored, to: transaction, catalog: catalog, now: now, writer: writer)
            try writer.updateRevocationEvent(applied)
        }
    }

    /// Decides what an event does to a fulfilled transaction, does it, and logs it.
    private func apply(
        _ record: RevocationRecord, to transaction: TransactionRecord, catalog: ProductCatalog, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) -> RevocationRecord {
        var result = record
        let event = record.event
        var state = try writer.refundState(transaction.key) ?? .active(transaction.key)
        if event.kind.takesBack {
            if let reversal = state.lastReversalDate, event.eventDate <= reversal {
                result.disposition = .stale
            } else {
                let unitsBefore = state.refundedQuantity
                let take = takeBack(event, from: transaction, state: &state)
                if take.units == 0 && !take.removesEntitlements {
                    result.disposition = .noChange
                } else {
                    let policy = catalog.product(id: transaction.productID)?.refundPolicy ?? .clawback
                    let applied = try RefundEffects.takeBack(
                        transaction, units: take.units, unitsBefore: unitsBefore,
                        removeEntitlements: take.removesEntitlements, policy: policy, catalog: catalog, now: now,
                        writer: writer)
                    var effect = applied.effect
                    if take.removesEntitlements {
                        effect += try SubscriptionChains.periodTakenBack(transaction, now: now, writer: writer)
                    }
                    // A floored refund of what was already spent takes nothing; the flag records it.
                    result.disposition = effect.isEmpty ? .noChange : .applied
                    result.effect = effect
                    result.debtCreated = applied.debt
                    result.absorbedChange = applied.absorbed
                }
            }
        } else {
            if let takeBack = state.lastTakeBackDate, event.eventDate <= takeBack {
                result.disposition = .stale
            } else {
                result.effect = try RefundEffects.giveBack(
                    transaction, catalog: catalog, now: now, writer: writer,
                    eventCountMax: configuration.revocationEventCountMax)
                result.effect += try SubscriptionChains.periodGivenBack(transaction, now: now, writer: writer)
                result.disposition = result.effect.isEmpty ? .noChange : .applied
                state.status = .active
                state.refundedQuantity = 0
            }
            state.lastReversalDate = max(state.lastReversalDate ?? event.eventDate, event.eventDate)
        }
        if result.disposition != .stale { try writer.upsertRefundState(state) }
        try logRevocation(result, transaction: transaction, now: now, writer: writer)
        return result
    }

    /// Updates the refund state for a take-back event and says how much to take.
    private func takeBack(
        _ event: RevocationEvent, from transaction: TransactionRecord, state: inout RefundState
    ) -> (units: Int, removesEntitlements: Bool) {
        let remaining = transaction.quantity - state.refundedQuantity
        let units: Int
        if event.kind == .partialRefund {
            let quantity = event.quantity ?? 0
            // A cumulative quantity says how much the store has refunded in all; only what
            // goes beyond the units already taken is new.
            units = min(event.quantityIsCumulative ? max(0, quantity - state.refundedQuantity) : quantity, remaining)
        } else {
            units = remaining
        }
        // A purchase no longer in force gave up its entitlements already.
        let wasInForce = state.status == .active || state.status == .partiallyRefunded
        state.refundedQuantity += units
        state.lastTakeBackDate = max(state.lastTakeBackDate ?? event.eventDate, event.eventDate)
        let everything = state.refundedQuantity >= transaction.quantity
        if event.kind == .revoke {
            state.status = .revoked
        } else if everything {
            state.status = state.status == .revoked ? .revoked : .refunded
        } else {
            state.status = .partiallyRefunded
        }
        return (units, everything && wasInForce)
    }

    private func logRevocation(
        _ record: RevocationRecord, transaction: TransactionRecord, now: Date, writer: LedgerWriter
    ) throws(LedgerError) {
        let event = record.event
        let effect = record.effect.map(\.description).joined(separator: ", ")
        let kind: LedgerEventKind
        switch (record.disposition, event.kind.takesBack) {
        case (.applied, true): kind = .refundApplied
        case (.applied, false): kind = .refundReversed
        default: kind = .revocationRecorded
        }
        try writer.appendEvent(
            LedgerEvent(
                kind: kind, playerID: transaction.playerID, transaction: transaction.key, at: now,
                detail: "\(event.kind) \(event.eventID) (\(record.disposition.rawValue))\(effect.isEmpty ? "" : ": \(effect)")"))
        for (currency, amount) in record.debtCreated.sorted(by: { $0.key < $1.key }) {
            try writer.appendEvent(
                LedgerEvent(
                    kind: .debtRecorded, playerID: transaction.playerID, transaction: transaction.key, at: now,
                    detail: "clawback of \(currency) left \(amount) owed; future grants of \(currency) repay it first"))
        }
    }
}
