/// One store's product: a store product ID on a store, such as `appStore/com.example.gems`.
public struct StoreProductKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The store.
    public var store: PlatformStore
    /// The product ID the store knows it by.
    public var storeProductID: String

    /// Creates a key.
    public init(store: PlatformStore, storeProductID: String) {
        self.store = store
        self.storeProductID = storeProductID
    }

    /// `store/storeProductID`, for messages.
    public var description: String { "\(store.rawValue)/\(storeProductID)" }

    /// Orders by store, then store product ID, for stable output.
    public static func < (lhs: StoreProductKey, rhs: StoreProductKey) -> Bool {
        (lhs.store.rawValue, lhs.storeProductID) < (rhs.store.rawValue, rhs.storeProductID)
    }
}

/// How many ledger records one store product has under one catalog product ID.
public struct StoreProductSaleCount: Hashable, Sendable, Codable {
    /// The catalog product the records were fulfilled as.
    public var productID: String
    /// The store product they were bought under.
    public var storeProduct: StoreProductKey
    /// How many ledger records (transactions, whatever their quantity).
    public var count: Int

    /// Creates a count.
    public init(productID: String, storeProduct: StoreProductKey, count: Int) {
        self.productID = productID
        self.storeProduct = storeProduct
        self.count = count
    }
}
