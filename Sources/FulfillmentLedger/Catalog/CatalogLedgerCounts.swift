/// What a live ledger holds that a catalog change can affect: how often each product and each
/// store product ID was sold, and how many players own each entitlement or hold each currency
/// and item. `CatalogDiff` uses it to say who a change reaches.
public struct CatalogLedgerCounts: Hashable, Sendable {
    /// Most rows read for each count; a ledger with more cannot be counted exactly.
    public static let rowCountMax = 100_000

    /// Ledger records per catalog product ID, all stores together.
    public var salesByProduct: [String: Int]
    /// Ledger records per store product ID, whatever catalog product they were fulfilled as.
    public var salesByStoreProduct: [StoreProductKey: Int]
    /// Players owning each entitlement.
    public var entitlementOwners: [String: Int]
    /// Players holding a positive balance of each currency.
    public var currencyHolders: [String: Int]
    /// Players holding a positive stack of each item.
    public var itemHolders: [String: Int]
    /// Whether owners and holders were counted at all; when not, every definition counts as owned.
    var ownersCounted = true

    /// Creates counts; anything left out counts as never sold and owned by nobody.
    public init(
        salesByProduct: [String: Int] = [:], salesByStoreProduct: [StoreProductKey: Int] = [:],
        entitlementOwners: [String: Int] = [:], currencyHolders: [String: Int] = [:], itemHolders: [String: Int] = [:]
    ) {
        self.salesByProduct = salesByProduct
        self.salesByStoreProduct = salesByStoreProduct
        self.entitlementOwners = entitlementOwners
        self.currencyHolders = currencyHolders
        self.itemHolders = itemHolders
    }

    /// Reads the counts from a ledger; nil when any of them has more than `rowCountMax` rows,
    /// since a count cut short would call a sold product "never sold".
    public static func read(from reader: LedgerReader) throws(LedgerError) -> CatalogLedgerCounts? {
        let limit = rowCountMax + 1
        let sales = try reader.saleCountsByStoreProduct(limit: limit)
        let entitlements = try reader.ownerCounts(of: .entitlement, limit: limit)
        let currencies = try reader.ownerCounts(of: .currency, limit: limit)
        let items = try reader.ownerCounts(of: .item, limit: limit)
        guard [sales.count, entitlements.count, currencies.count, items.count].allSatisfy({ $0 <= rowCountMax }) else {
            return nil
        }
        var counts = CatalogLedgerCounts(entitlementOwners: entitlements, currencyHolders: currencies, itemHolders: items)
        for sale in sales {
            counts.salesByProduct[sale.productID, default: 0] += sale.count
            counts.salesByStoreProduct[sale.storeProduct, default: 0] += sale.count
        }
        return counts
    }

    /// The owner or holder counts of one kind of definition; nil when they were not counted.
    func owners(of kind: AssetKind) -> [String: Int]? {
        guard ownersCounted else { return nil }
        return switch kind {
        case .entitlement: entitlementOwners
        case .currency: currencyHolders
        case .item: itemHolders
        }
    }
}
