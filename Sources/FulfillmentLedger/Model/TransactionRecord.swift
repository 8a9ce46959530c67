import Foundation

/// One row of the transaction ledger: a fulfilled payment obligation.
///
/// It survives game resets, so a replayed transaction is always recognised.
public struct TransactionRecord: Hashable, Sendable, Codable {
    /// The purchase's ledger key, unique across all players: the store and the ID that names
    /// the purchase on every delivery (App Store `originalTransactionId` for a non-consumable,
    /// `transactionId` for a consumable, the Play purchase token, the test store's ID).
    public var key: TransactionKey
    /// The store's ID of the delivery that was granted (App Store `transactionId`); equal to
    /// `key.transactionID` unless a non-consumable was first fulfilled from a restore.
    public var storeTransactionID: String
    /// The player who received the grant.
    public var playerID: String
    /// The catalog product ID that was fulfilled.
    public var productID: String
    /// The store's product ID as verified.
    public var storeProductID: String
    /// Consumable or non-consumable, as the catalog said at fulfillment.
    public var productKind: ProductKind
    /// Units bought.
    public var quantity: Int
    /// The store environment of the purchase.
    public var environment: StoreEnvironment
    /// The store's purchase date (millisecond precision).
    public var purchaseDate: Date
    /// When the ledger committed the grant (millisecond precision).
    public var fulfilledAt: Date
    /// The version hash of the catalog used to compute the grant.
    public var catalogVersion: String
    /// Exactly what was granted, and every entitlement the purchase pays for (an entitlement
    /// the player already owned through another purchase is listed too).
    public var grants: [GrantLine]
    /// Whether `grants` lists every entitlement the purchase pays for. False only for records
    /// written before schema 5, which left out an entitlement the player already owned; such
    /// a record is taken to pay for what its catalog product grants now.
    public var entitlementsListed: Bool
    /// When the platform was told to finish the transaction; `nil` while the finish is pending.
    public var finishedAt: Date?
    /// The store's order ID of the granted delivery, when the verifier read one (Google Play
    /// `orderId`, the `GPA.…` ID in the player's receipt email); nil for records written
    /// before it was kept, and for stores without one.
    public var storeOrderID: String?

    /// Creates a record.
    public init(
        key: TransactionKey, playerID: String, productID: String, storeProductID: String,
        productKind: ProductKind, quantity: Int, environment: StoreEnvironment, purchaseDate: Date,
        fulfilledAt: Date, catalogVersion: String, grants: [GrantLine], finishedAt: Date?,
        storeTransactionID: String? = nil, entitlementsListed: Bool = true, storeOrderID: String? = nil
    ) {
        self.storeOrderID = storeOrderID
        self.entitlementsListed = entitlementsListed
        self.key = key
        self.storeTransactionID = storeTransactionID ?? key.transactionID
        self.playerID = playerID
        self.productID = productID
        self.storeProductID = storeProductID
        self.productKind = productKind
        self.quantity = quantity
        self.environment = environment
        self.purchaseDate = purchaseDate.truncatedToLedgerMilliseconds
        self.fulfilledAt = fulfilledAt.truncatedToLedgerMilliseconds
        self.catalogVersion = catalogVersion
        self.grants = grants
        self.finishedAt = finishedAt?.truncatedToLedgerMilliseconds
    }

    /// Whether the platform has been told to finish this transaction.
    public var isFinished: Bool { finishedAt != nil }

    /// The entitlements this purchase pays for, as its grant lines list them.
    public var entitlementIDs: [String] { grants.filter { $0.kind == .entitlement }.map(\.id) }

    /// Whether `transactionID` is one of the two store IDs this record holds.
    public func isNamed(by transactionID: String) -> Bool {
        transactionID == key.transactionID || transactionID == storeTransactionID
    }
}

extension Date {
    /// Milliseconds since 1970, the precision every ledger store keeps: sub-millisecond parts
    /// are dropped, but a value a hair below a whole millisecond (binary floating point, as
    /// when "….002Z" is parsed) counts as that millisecond, so round trips never drift.
    ///
    /// Never traps: a date beyond what an `Int64` of milliseconds can hold (or not finite) is
    /// clamped to the nearest end. Inputs are range-checked before they become dates
    /// (`isInLedgerRange`), so stored dates are never clamped.
    public var ledgerMilliseconds: Int64 {
        let milliseconds = timeIntervalSince1970 * 1000
        guard milliseconds.isFinite else { return milliseconds > 0 ? Int64.max : Int64.min }
        // Double(Int64.max) is 2^63; anything at or past it does not fit.
        guard milliseconds < Double(Int64.max), milliseconds > -Double(Int64.max) else {
            return milliseconds > 0 ? Int64.max : Int64.min
        }
        let nearest = milliseconds.rounded()
        return Int64(abs(milliseconds - nearest) < 1e-3 ? nearest : milliseconds.rounded(.down))
    }

    /// ISO 8601 in UTC with exactly the ledger's milliseconds, such as `2026-11-30T00:42:23.002Z`.
    public var ledgerISO8601: String {
        let milliseconds = ledgerMilliseconds
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = remainder < 0 ? seconds - 1 : seconds
        let fraction = remainder < 0 ? remainder + 1000 : remainder
        let base = Date(timeIntervalSince1970: TimeInterval(whole)).formatted(.iso8601)
        return String(base.dropLast()) + "." + String(format: "%03lld", fraction) + "Z"
    }

    /// A date from milliseconds since 1970.
    public init(ledgerMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(ledgerMilliseconds) / 1000)
    }

    /// This date at the ledger's millisecond precision, so stored and in-memory values compare equal.
    public var truncatedToLedgerMilliseconds: Date { Date(ledgerMilliseconds: ledgerMilliseconds) }
}
