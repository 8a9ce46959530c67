/// The fields each object of a catalog file may and must have: the one list the loader
/// enforces and the JSON Schema (`Docs/ProductCatalog.schema.json`) is tested against.
public enum CatalogFields {
    /// Fields of one kind of catalog object.
    public struct Shape: Sendable, Hashable {
        /// Every field accepted; anything else is reported as an unknown field.
        public var allowed: Set<String>
        /// Fields that must be present.
        public var required: [String]
    }

    /// The top-level object.
    public static let root = Shape(
        allowed: ["$schema", "schemaVersion", "currencies", "items", "entitlements", "products"],
        required: ["schemaVersion", "currencies", "items", "entitlements", "products"])
    /// A currency or item declaration.
    public static let definition = Shape(allowed: ["id", "name", "description"], required: ["id"])
    /// An entitlement declaration.
    public static let entitlement = Shape(
        allowed: ["id", "name", "description", "unknownPolicy", "removesAds"], required: ["id"])
    /// A product.
    public static let product = Shape(
        allowed: [
            "id", "name", "description", "kind", "storeProductIDs", "rewards", "limit", "refundPolicy", "familySharing",
            "subscriptionGroup", "periodRewards", "playPurchaseOption",
        ],
        required: ["id", "kind", "storeProductIDs", "rewards"])
    /// A product's store product IDs, keyed by store.
    public static let storeProductIDs = Shape(allowed: Set(PlatformStore.known.map(\.rawValue)), required: [])
    /// A product's rewards, and an autoRenewable product's `periodRewards` (where the loader
    /// refuses `entitlements` with its own message).
    public static let rewards = Shape(allowed: ["currencies", "items", "entitlements"], required: [])
    /// One currency reward line.
    public static let currencyLine = Shape(allowed: ["id", "amount"], required: ["id", "amount"])
    /// One item reward line.
    public static let itemLine = Shape(allowed: ["id", "quantity"], required: ["id", "quantity"])
    /// A product's Google Play purchase option, and the offer within it.
    public static let playPurchaseOption = Shape(allowed: ["purchaseOptionID", "offerID"], required: ["purchaseOptionID"])
    /// A purchase limit.
    public static let limit = Shape(allowed: ["count", "per"], required: ["count", "per"])
}

extension CatalogReader {
    /// Returns the object at `path` checked against a shape.
    mutating func object(_ value: JSONValue, at path: String, shape: CatalogFields.Shape) -> JSONObject? {
        object(value, at: path, allowedKeys: shape.allowed, requiredKeys: shape.required)
    }
}
