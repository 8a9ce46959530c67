import Foundation
import FulfillmentLedger

/// Compares one player's purchases in the ledger with what Apple says, through the App Store
/// Server API, and optionally catches the ledger up: the server-side answer to "a purchase
/// never reached us" and "a refund was never pushed".
///
/// - `reconcile` reads Transaction History and Refund History and reports purchases the
///   ledger lacks, refunds it has not applied, and App Store records Apple does not list. It
///   changes nothing unless `apply` is set; then it grants what is missing through the normal
///   pipeline (exactly once, like any delivery) and applies each refund as a revocation event.
/// - `restore` lists what the player owns from Transaction History, trusting no client, and
///   runs the ledger's restore with it.
///
/// The ledger's App Store verifier checks each transaction again when it is granted, so the
/// reconciler never grants on its own word.
public struct AppStoreReconciler: Sendable {
    /// Pages of each history read by default, 20 transactions each.
    public static let pageCountMaxDefault = 25

    /// The App Store Server API; its environment is the ledger's.
    public let client: AppStoreServerAPIClient
    /// The ledger compared.
    public let ledger: Ledger
    /// The most pages of each history one call reads.
    public let pageCountMax: Int

    /// A reconciler of `ledger` with Apple through `client`, reading at most `pageCountMax`
    /// pages of each history (at least 1, at most the client's `pageCountMaxDefault`).
    public init(client: AppStoreServerAPIClient, ledger: Ledger, pageCountMax: Int = pageCountMaxDefault) {
        self.client = client
        self.ledger = ledger
        self.pageCountMax = min(max(1, pageCountMax), AppStoreServerAPIClient.pageCountMaxDefault)
    }

    /// Compares the player's ledger records with Apple's histories and, with `apply`, grants
    /// the missing purchases and applies the unapplied refunds.
    ///
    /// - Parameters:
    ///   - anchorTransactionID: any of Apple's IDs of the player's Apple Account (Apple's
    ///     `anyTransactionId`, API 1.20+): a transaction ID, an original transaction ID, or the
    ///     account's `appTransactionId`, which the game client reads from `AppTransaction` and
    ///     which finds the account even when the ledger holds none of its purchases. By default
    ///     the newest App Store record of the player in the ledger.
    /// - Throws: `invalidArgument` for a bad player ID, no anchor, or an anchor Apple does not
    ///   know; `transactionSourceUnavailable` when Apple cannot be asked (nothing changed);
    ///   storage errors. A failure while applying one entry is reported in `applied`.
    public func reconcile(
        playerID: String, anchorTransactionID: String? = nil, apply: Bool = false
    ) async throws(LedgerError) -> AppStoreReconciliation {
        let snapshot = try await ledger.player(playerID)
        let records = snapshot.history.filter { $0.key.store == .appStore }
        let anchor: String
        if let anchorTransactionID { anchor = anchorTransactionID } else { anchor = try newestAnchor(records, playerID: playerID) }
        let history = try await AppStorePlayerHistory.read(
            client: client, anchorTransactionID: anchor,
            binding: ledger.configuration.accountBinding(for: .appStore, playerID: playerID), pageCountMax: pageCountMax,
            now: ledger.clock.now())
        var report = AppStoreReconciliation(
            playerID: playerID, anchorTransactionID: anchor, readAt: history.readAt, isComplete: history.isComplete,
            transactionsRead: history.readCount, unattributedCount: history.unattributedCount)
        report.appTransactionIDs = history.appTransactionIDs.sorted()
        report.unbound = history.unbound.map { signed, facts in Self.entry(signed, facts, key: facts.key) }
        var listedKeys: Set<TransactionKey> = []
        for (signed, facts) in history.transactions {
            guard let product = ledger.catalog.product(store: .appStore, storeProductID: facts.storeProductID) else {
                report.notInCatalog.append(Self.entry(signed, facts, key: facts.key))
                continue
            }
            let key = facts.ledgerKey(for: product.kind)
            listedKeys.insert(key)
            if facts.revocationDate == nil, try await ledger.purchaseRecord(key) == nil {
                report.missingGrants.append(Self.entry(signed, facts, key: key))
            }
        }
        for (_, (signed, facts)) in history.refunds.sorted(by: { $0.key < $1.key }) {
            guard let product = ledger.catalog.product(store: .appStore, storeProductID: facts.storeProductID) else { continue }
            let key = facts.ledgerKey(for: product.kind)
            listedKeys.insert(key)
            guard let (_, state) = try await ledger.purchaseRecord(key) else { continue }
            if Self.isUnapplied(signed.transaction, state: state) {
                report.unappliedRefunds.append(Self.entry(signed, facts, key: key))
            }
        }
        if history.isComplete {
            report.unknownToStore = records.map(\.key).filter { !listedKeys.contains($0) }.sorted()
        }
        if apply { try await self.apply(&report, history: history) }
        return report
    }

    /// The player's owned transactions by Transaction History, as a restore query: complete
    /// (authoritative as of the read) when every page was read, partial otherwise; `.failed`
    /// when Apple cannot be asked. Refunded and revoked transactions are left out, so an
    /// authoritative restore takes back a refunded non-consumable.
    public func restoreQuery(playerID: String, anchorTransactionID: String) async -> RestoreQuery {
        do throws(LedgerError) {
            let history = try await AppStorePlayerHistory.read(
                client: client, anchorTransactionID: anchorTransactionID,
                binding: ledger.configuration.accountBinding(for: .appStore, playerID: playerID),
                pageCountMax: pageCountMax, now: ledger.clock.now())
            let owned = history.transactions.filter { $0.facts.revocationDate == nil }.map { signed, facts in
                TransactionSubmission(
                    store: .appStore, transactionID: facts.transactionID, storeProductID: facts.storeProductID,
                    playerID: playerID, quantity: facts.quantity, payload: signed.jws)
            }
            return .answered(store: .appStore, transactions: owned, authoritativeAsOf: history.isComplete ? history.readAt : nil)
        } catch {
            return .failed(error)
        }
    }

    /// Restores `playerID` from Transaction History (see `restoreQuery`).
    public func restore(playerID: String, anchorTransactionID: String) async throws(LedgerError) -> RestoreReport {
        try await ledger.restore(playerID: playerID, query: await restoreQuery(playerID: playerID, anchorTransactionID: anchorTransactionID))
    }

    /// The newest App Store record's transaction ID, to ask Apple about its customer.
    private func newestAnchor(_ records: [TransactionRecord], playerID: String) throws(LedgerError) -> String {
        guard let newest = records.first else {
            throw .invalidArgument(
                "player \(playerID) has no App Store purchase in the ledger; name a transaction of theirs or their appTransactionId")
        }
        return newest.storeTransactionID
    }

    /// Whether Apple's refunded `transaction` takes back more than the ledger's `state` shows.
    static func isUnapplied(_ transaction: JWSTransactionDecodedPayload, state: RefundState?) -> Bool {
        guard let state else { return true }
        switch state.status {
        case .active: return true
        case .refunded, .revoked: return false
        case .partiallyRefunded:
            guard transaction.revocationType == .refundProrated, let percentage = transaction.revocationPercentage else {
                return true
            }
            let units = AppStoreRevocationMapping.refundedUnits(
                quantity: transaction.quantity ?? 1, revocationPercentage: percentage)
            return units > state.refundedQuantity
        }
    }

    /// Grants the missing purchases and applies the unapplied refunds, recording each result.
    private func apply(_ report: inout AppStoreReconciliation, history: AppStorePlayerHistory) async throws(LedgerError) {
        report.didApply = true
        let byID = Dictionary(
            (history.transactions + history.refunds.values).map { ($0.facts.transactionID, $0) },
            uniquingKeysWith: { first, _ in first })
        for entry in report.missingGrants {
            guard let (signed, facts) = byID[entry.transactionID] else { continue }
            let submission = TransactionSubmission(
                store: .appStore, transactionID: entry.transactionID, storeProductID: entry.storeProductID,
                playerID: report.playerID, quantity: facts.quantity, payload: signed.jws)
            do throws(LedgerError) {
                report.applied[entry.transactionID] = .fulfilled(try await ledger.fulfill(submission, via: .sync))
            } catch {
                report.applied[entry.transactionID] = .failed(error)
            }
        }
        for entry in report.unappliedRefunds {
            guard let (signed, _) = byID[entry.transactionID] else { continue }
            // A stable event ID: reconciling again finds the event recorded, not a new refund.
            let eventID = "reconcile:\(entry.transactionID):\(entry.revocationDate?.ledgerMilliseconds ?? 0)"
            let decision = AppStoreRevocationMapping.decision(
                type: .refund,
                transaction: signed.transaction, transactionID: entry.transactionID, notificationUUID: eventID,
                signedDate: entry.revocationDate, now: report.readAt)
            guard case .apply(let event) = decision else { continue }
            do throws(LedgerError) {
                report.applied[entry.transactionID] = .revocation(try await ledger.applyRevocation(event))
            } catch {
                report.applied[entry.transactionID] = .failed(error)
            }
        }
    }

    private static func entry(
        _ signed: AppStoreSignedTransaction, _ facts: VerifiedTransaction, key: TransactionKey
    ) -> AppStoreReconciliation.Entry {
        AppStoreReconciliation.Entry(
            transactionID: facts.transactionID, originalTransactionID: facts.originalTransactionID,
            storeProductID: facts.storeProductID, ledgerKey: key, purchaseDate: facts.purchaseDate,
            revocationDate: facts.revocationDate)
    }
}
