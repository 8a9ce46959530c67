import Foundation

/// The answer of a store query for a player's owned transactions. "Empty" and "error"
/// are different answers: a failed query must change nothing.
public enum RestoreQuery: Sendable {
    /// `store` answered with this list of the player's transactions, every one from `store`
    /// (StoreKit `currentEntitlements`, Play `queryPurchasesAsync`: a store lists only its own).
    ///
    /// `authoritativeAsOf` is set when the list is complete: the time the store's list was
    /// read. Then a non-consumable of that store the player holds but the list lacks may be
    /// revoked, unless the ledger fulfilled it (or applied a refund reversal to it) after that
    /// time, which the list could not know about. Nil: a partial list that revokes nothing.
    case answered(store: PlatformStore, transactions: [TransactionSubmission], authoritativeAsOf: Date? = nil)
    /// The store could not be asked; nothing will change.
    case failed(LedgerError)
}

/// What a restore did.
public struct RestoreReport: Hashable, Sendable {
    /// The player restored.
    public var playerID: String
    /// Why the query failed, when it did; then nothing changed.
    public var queryError: LedgerError?
    /// The pipeline's outcome for each listed transaction.
    public var outcomes: [TransactionKey: FulfillmentOutcome] = [:]
    /// Transactions whose non-consumable entitlements moved to this player.
    public var transferred: [TransactionKey] = []
    /// Non-consumables revoked because an authoritative list no longer contains them.
    public var revoked: [TransactionKey] = []
    /// Why an authoritative list revoked nothing although it could have, when it did not try
    /// (a listed transaction failed, so the list was not fully reconciled).
    public var revocationSkipped: String?
    /// Listed transactions that failed with an infrastructure error; a retry is safe.
    public var errors: [TransactionKey: LedgerError] = [:]
}

extension Ledger {
    /// Reconciles a player with the store's current list of their transactions: grants
    /// whatever is missing through the normal pipeline, never twice.
    ///
    /// A partial answer revokes nothing; a failed query changes nothing. An authoritative
    /// answer revokes only purchases of the store that answered, fulfilled before its list
    /// was read. A list that names another store's transaction is refused before anything
    /// changes. With `ownershipTransfer = .nonConsumablesOnRestore`, a non-consumable
    /// fulfilled for another player moves to this one.
    public func restore(playerID: String, query: RestoreQuery) async throws(LedgerError) -> RestoreReport {
        try checkIdentifier(playerID, "playerID")
        var report = RestoreReport(playerID: playerID)
        guard case .answered(let store, let listed, let authoritativeAsOf) = query else {
            if case .failed(let error) = query { report.queryError = error }
            return report
        }
        try checkStore(store)
        if let readAt = authoritativeAsOf { try checkDate(readAt, "authoritativeAsOf") }
        guard listed.count <= configuration.restoreCountMax else {
            throw LedgerError.invalidArgument("a restore takes at most \(configuration.restoreCountMax) transactions")
        }
        if let stranger = listed.first(where: { $0.store != store }) {
            throw LedgerError.invalidArgument(
                "a restore answered by \(store) lists \(stranger.key), a transaction of another store")
        }
        var listedPurchases = Set(listed.map(\.key))
        for var submission in listed {
            submission.playerID = playerID
            do {
                var outcome = try await fulfill(submission, via: .restore)
                if outcome.rejection?.reason == .ownedByAnotherPlayer,
                    configuration.ownershipTransfer == .nonConsumablesOnRestore,
                    let moved = try await transferNonConsumable(submission, to: playerID)
                {
                    report.transferred.append(moved.key)
                    outcome = .alreadyFulfilled(FulfillmentReceipt(record: moved, finished: moved.isFinished))
                }
                // A restored delivery names its purchase by another ID than the record's key.
                if let record = outcome.receipt?.record { listedPurchases.insert(record.key) }
                report.outcomes[submission.key] = outcome
            } catch {
                report.errors[submission.key] = error
            }
        }
        if let readAt = authoritativeAsOf {
            if report.errors.isEmpty {
                report.revoked = try await revokeUnlisted(
                    playerID: playerID, store: store, listed: listedPurchases, readAt: readAt)
            } else {
                report.revocationSkipped = "\(report.errors.count) listed transaction(s) failed; retry the restore"
            }
        }
        return report
    }

    /// Moves a non-consumable's record and entitlements to `playerID`; nil for a consumable.
    private func transferNonConsumable(
        _ submission: TransactionSubmission, to playerID: String
    ) async throws(LedgerError) -> TransactionRecord? {
        // Only the verifier's facts name the purchase: a restored delivery has its own ID.
        guard case .verified(let verified) = try await verifier.verify(submission) else { return nil }
        let now = clock.now()
        let catalog = self.catalog
        return try await commit { writer throws(LedgerError) -> TransactionRecord? in
            guard var record = try writer.fulfilledPurchase(verified, kind: .nonConsumable),
                record.productKind == .nonConsumable, record.playerID != playerID
            else { return nil }
            let key = record.key
            // A refunded or revoked purchase pays for nothing any more: there is nothing to move.
            let status = try writer.refundState(key)?.status ?? .active
            guard status == .active else { return nil }
            let previous = record.playerID
            // Only this purchase's payments move; the old owner keeps what another purchase pays for.
            let paidFor = try EntitlementOwnership.paidFor(by: record, catalog: catalog, writer: writer)
            for entitlementID in paidFor {
                _ = try EntitlementOwnership.release(entitlementID, of: record, catalog: catalog, now: now, writer: writer)
            }
            try writer.reassignTransaction(key, toPlayerID: playerID)
            for entitlementID in paidFor {
                try EntitlementOwnership.pay(entitlementID, by: key, playerID: playerID, now: now, writer: writer)
            }
            for (player, detail) in [(previous, "moved to \(playerID) by restore"), (playerID, "moved from \(previous) by restore")] {
                try writer.appendEvent(
                    LedgerEvent(kind: .entitlementTransferred, playerID: player, transaction: key, at: now, detail: detail))
            }
            record.playerID = playerID
            return record
        }
    }

    /// Revokes the player's active non-consumables of `store` that an authoritative list,
    /// read at `readAt`, lacks. What the ledger fulfilled or reinstated after `readAt` stays.
    private func revokeUnlisted(
        playerID: String, store: PlatformStore, listed: Set<TransactionKey>, readAt: Date
    ) async throws(LedgerError) -> [TransactionKey] {
        let limit = configuration.restoreCountMax
        let readAtMilliseconds = readAt.ledgerMilliseconds
        let candidates = try await self.store.read { reader throws(LedgerError) -> [TransactionRecord] in
            // Only purchases still in force; one already refunded or revoked needs no second revoke.
            var inForce: [TransactionRecord] = []
            for record in try reader.transactions(playerID: playerID, limit: limit)
            where record.key.store == store && record.productKind == .nonConsumable && !listed.contains(record.key)
                && record.fulfilledAt.ledgerMilliseconds <= readAtMilliseconds
            {
                let state = try reader.refundState(record.key)
                guard (state?.status ?? .active) == .active else { continue }
                if let reversal = state?.lastReversalDate, reversal.ledgerMilliseconds > readAtMilliseconds { continue }
                inForce.append(record)
            }
            return inForce
        }
        var revoked: [TransactionKey] = []
        let now = clock.now()
        for record in candidates {
            let event = RevocationEvent(
                eventID: "restore-revoke:\(record.key.store.rawValue):\(record.key.transactionID):\(now.ledgerMilliseconds)",
                store: record.key.store,
                transactionID: record.key.transactionID, kind: .revoke, eventDate: now,
                reason: "absent from an authoritative restore list read at \(readAt.ledgerISO8601)")
            if case .recorded(let stored) = try await applyRevocation(event), stored.disposition == .applied {
                revoked.append(record.key)
            }
        }
        return revoked
    }
}
