import Foundation
import FulfillmentLedger

/// What `AppStoreReconciler.reconcile` found for one player: Apple's Transaction History and
/// Refund History next to the ledger, and, when told to apply, what it changed.
public struct AppStoreReconciliation: Hashable, Sendable, Encodable {
    /// One transaction of Apple's that the ledger has not caught up with.
    public struct Entry: Hashable, Sendable, Codable {
        /// Apple's `transactionId`.
        public var transactionID: String
        /// Apple's `originalTransactionId`.
        public var originalTransactionID: String?
        /// The store product ID.
        public var storeProductID: String
        /// The ledger key the purchase has (or would have).
        public var ledgerKey: TransactionKey
        /// When it was bought.
        public var purchaseDate: Date
        /// When Apple refunded or revoked it, for a refund.
        public var revocationDate: Date?
    }

    /// What applying did to one entry.
    public enum Applied: Hashable, Sendable, Encodable {
        /// The pipeline's outcome for a missing purchase.
        case fulfilled(FulfillmentOutcome)
        /// The revocation's outcome for an unapplied refund.
        case revocation(RevocationOutcome)
        /// An infrastructure failure; applying again is safe.
        case failed(LedgerError)
    }

    /// The player.
    public var playerID: String
    /// The ID whose customer Apple was asked about: a transaction ID, an original transaction
    /// ID, or the customer's `appTransactionId` (Apple's `anyTransactionId`).
    public var anchorTransactionID: String
    /// When Apple was asked.
    public var readAt: Date
    /// Whether both histories were read to their end. When false (a page limit stopped a
    /// read), `unknownToStore` is empty: a record may be on a page not read.
    public var isComplete: Bool
    /// Transactions read from both histories.
    public var transactionsRead: Int
    /// Transactions of the customer bound to another player or to none: not this player's.
    public var unattributedCount: Int
    /// The `appTransactionId`s the player's transactions name: the Apple Account (or accounts)
    /// the player bought with. Anchor a later reconcile with one to find the account even when
    /// the ledger holds none of its purchases.
    public var appTransactionIDs: [String] = []
    /// Transactions of the customer bound to no player (no `appAccountToken`): purchases made
    /// outside the app, such as a redeemed offer code. They are never granted to a guess; once
    /// support knows whose they are, Set App Account Token (`ledger appstore set-token`) binds
    /// one to its player and the next reconcile lists it under `missingGrants`.
    public var unbound: [Entry] = []
    /// Purchases Apple lists and the ledger lacks (unrevoked, products of the catalog).
    public var missingGrants: [Entry] = []
    /// Refunds and revocations Apple lists that the ledger has not applied.
    public var unappliedRefunds: [Entry] = []
    /// The player's App Store records Apple's history does not list.
    public var unknownToStore: [TransactionKey] = []
    /// Apple's transactions of products the catalog does not sell (such as subscriptions).
    public var notInCatalog: [Entry] = []
    /// Whether `missingGrants` and `unappliedRefunds` were applied.
    public var didApply = false
    /// What applying did, by Apple's transaction ID.
    public var applied: [String: Applied] = [:]

    /// Whether the ledger and Apple agree (nothing missing, unapplied or unknown).
    public var isClean: Bool { missingGrants.isEmpty && unappliedRefunds.isEmpty && unknownToStore.isEmpty }
}

extension AppStoreReconciliation.Applied {
    private enum CodingKeys: String, CodingKey { case fulfilled, revocation, failed }

    /// `{"fulfilled": outcome}`, `{"revocation": outcome}` or `{"failed": error}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .fulfilled(let outcome): try container.encode(outcome, forKey: .fulfilled)
        case .revocation(let outcome): try container.encode(outcome, forKey: .revocation)
        case .failed(let error): try container.encode(error, forKey: .failed)
        }
    }
}

extension AppStoreReconciliation {
    private enum CodingKeys: String, CodingKey {
        case playerID, anchorTransactionID, readAt, isComplete, transactionsRead, unattributedCount, appTransactionIDs
        case unbound, missingGrants
        case unappliedRefunds, unknownToStore, notInCatalog, didApply, applied, isClean
    }

    /// The report's stable JSON shape, `isClean` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(playerID, forKey: .playerID)
        try container.encode(anchorTransactionID, forKey: .anchorTransactionID)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(isComplete, forKey: .isComplete)
        try container.encode(transactionsRead, forKey: .transactionsRead)
        try container.encode(unattributedCount, forKey: .unattributedCount)
        try container.encode(appTransactionIDs, forKey: .appTransactionIDs)
        try container.encode(unbound, forKey: .unbound)
        try container.encode(missingGrants, forKey: .missingGrants)
        try container.encode(unappliedRefunds, forKey: .unappliedRefunds)
        try container.encode(unknownToStore, forKey: .unknownToStore)
        try container.encode(notInCatalog, forKey: .notInCatalog)
        try container.encode(didApply, forKey: .didApply)
        try container.encode(applied, forKey: .applied)
        try container.encode(isClean, forKey: .isClean)
    }
}
