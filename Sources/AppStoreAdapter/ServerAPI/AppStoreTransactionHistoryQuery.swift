import Foundation
import FulfillmentLedger

/// The optional filters of Get Transaction History v2. Apple asks every page of one read to
/// repeat the same filters with the new `revision`, so the client sends them with each page.
public struct AppStoreTransactionHistoryQuery: Sendable, Hashable {
    /// Apple's sort orders.
    public enum Sort: String, Sendable, Hashable {
        /// Oldest first (Apple's default).
        case ascending = "ASCENDING"
        /// Newest first.
        case descending = "DESCENDING"
    }

    /// Only transactions signed at or after this date (`startDate`, milliseconds).
    public var startDate: Date?
    /// Only transactions signed before this date (`endDate`, milliseconds).
    public var endDate: Date?
    /// Only these products (`productId`, repeated).
    public var productIDs: [String]
    /// Only these product types (`productType`, repeated): `CONSUMABLE`, `NON_CONSUMABLE`,
    /// `AUTO_RENEWABLE`, `NON_RENEWABLE`.
    public var productTypes: [String]
    /// The order (`sort`).
    public var sort: Sort?
    /// Only revoked (`true`) or only unrevoked (`false`) transactions (`revoked`).
    public var revoked: Bool?

    /// Creates a query; with no arguments, everything in Apple's order.
    public init(
        startDate: Date? = nil, endDate: Date? = nil, productIDs: [String] = [], productTypes: [String] = [],
        sort: Sort? = nil, revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIDs = productIDs
        self.productTypes = productTypes
        self.sort = sort
        self.revoked = revoked
    }

    /// The query items, in a fixed order.
    var items: [(String, String)] {
        var items: [(String, String)] = []
        if let startDate { items.append(("startDate", String(startDate.ledgerMilliseconds))) }
        if let endDate { items.append(("endDate", String(endDate.ledgerMilliseconds))) }
        items += productIDs.map { ("productId", $0) }
        items += productTypes.map { ("productType", $0) }
        if let sort { items.append(("sort", sort.rawValue)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }
}
