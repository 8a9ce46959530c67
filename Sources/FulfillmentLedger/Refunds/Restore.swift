import Foundation

/// The answer of a store query for a player's owned transactions. "Empty" and "error"
/// are different answers: a failed query must change nothing.
public enum RestoreQuery: Sendable {
    /// The store answered with this list. `authoritative` says the list is complete, so a
    /// non-consumable the player holds but the list lacks may be revoked.
    case answered([TransactionSubmission], authoritative: Bool)
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
    /// Listed transactions that failed with an infrastructure error; a retry is safe.
    public var errors: [TransactionKey: LedgerError] = [:]
}

extension Ledger {
    /// Reconciles a player with the store's current list of their transactions: grants
    /// whatever is missing through the normal pipeline, never twice.
    ///
    /// An empty answer revokes nothing unless it is marked authoritative; a failed query
    /// changes nothing. With `ownershipTransfer = .nonConsumablesOnRestore`, a
    /// non-consumable fulfilled for another player moves to this one.
    public func restore(playerID: String, query: RestoreQuery) async throws(LedgerError) -> RestoreReport {
        try checkIdentifier(playerID, "playerID")
        var report = RestoreReport(playerID: playerID)
        guard case .answered(let listed, let authoritative) = query else {
            if case .failed(let error) = query { report.queryError = error }
            return report
        }
        guard listed.count <= configuration.restoreCountMax else {
            throw LedgerError.invalidArgument("a restore takes at most \(configuration.restoreCountMax) transactions")
        }
        for var submission in listed {
            submission.playerID = playerID
            do {
                var outcome = try await fulfill(submission)
                if outcome.rejection?.reason == .ownedByAnotherPlayer,
                    configuration.ownershipTransfer == .nonConsumablesOnRestore,
                    let moved = try transferNonConsumable(submission.key, to: playerID)
                {
                    report.transferred.append(submission.key)
                    outcome = .alreadyFulfilled(FulfillmentReceipt(record: moved, finished: moved.isFinished))
                }
                report.outcomes[submission.key] = outcome
            } catch {
                report.errors[submission.key] = error
            }
        }
        if authoritative {
            report.revoked = try revokeUnlisted(playerID: playerID, listed: Set(listed.map(\.key)))
        }
        return report
    }

    /// Moves a non-consumable's record and entitlements to `playerID`; nil for a consumable.
    private func transferNonConsumable(_ key: TransactionKey, to playerID: String) throws(LedgerError) -> TransactionRecord? {
        let now = clock.now()
        return try store.write { writer throws(LedgerError) -> TransactionRecord? in
            guard var record = try writer.transaction(key), record.productKind == .nonConsumable,
                record.playerID != playerID
            else { return nil }
            // A refunded or revoked purchase pays for nothing any more: there is nothing to move.
            let status = try writer.refundState(key)?.status ?? .active
            guard status == .active else { return nil }
            let previous = record.playerID
            for line in record.grants where line.kind == .entitlement {
                // Only what this purchase holds moves; another purchase of the old owner keeps its own.
                let held = try writer.entitlements(playerID: previous).first { $0.entitlementID == line.id }
                if held?.source == key, try writer.revokeEntitlement(playerID: previous, entitlementID: line.id) {
                    _ = try writer.bumpEntitlementVersion(playerID: previous)
                }
                let entitlement = EntitlementRecord(entitlementID: line.id, grantedAt: now, source: key)
                if try writer.grantEntitlement(entitlement, playerID: playerID) {
                    _ = try writer.bumpEntitlementVersion(playerID: playerID)
                }
            }
            try writer.reassignTransaction(key, toPlayerID: playerID)
            for (player, detail) in [(previous, "moved to \(playerID) by restore"), (playerID, "moved from \(previous) by restore")] {
                try writer.appendEvent(
                    LedgerEvent(kind: .entitlementTransferred, playerID: player, transaction: key, at: now, detail: detail))
            }
            record.playerID = playerID
            return record
        }
    }

    /// Revokes the player's active non-consumables that an authoritative list lacks.
    private func revokeUnlisted(playerID: String, listed: Set<TransactionKey>) throws(LedgerError) -> [TransactionKey] {
        let limit = configuration.restoreCountMax
        let candidates = try store.read { reader throws(LedgerError) -> [TransactionRecord] in
            // Only purchases still in force; one already refunded or revoked needs no second revoke.
            var inForce: [TransactionRecord] = []
            for record in try reader.transactions(playerID: playerID, limit: limit)
            where record.productKind == .nonConsumable && !listed.contains(record.key) {
                let status = try reader.refundState(record.key)?.status ?? .active
                if status == .active { inForce.append(record) }
            }
            return inForce
        }
        var revoked: [TransactionKey] = []
        let now = clock.now()
        for record in candidates {
            let event = RevocationEvent(
                eventID: "restore-revoke:\(record.key):\(now.ledgerMilliseconds)", store: record.key.store,
                transactionID: record.key.transactionID, kind: .revoke, eventDate: now,
                reason: "absent from an authoritative restore list")
            if case .recorded(let stored) = try applyRevocation(event), stored.disposition == .applied {
                revoked.append(record.key)
            }
        }
        return revoked
    }
}
