/// The kind of thing a grant or an economy operation changes.
public enum AssetKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A currency balance.
    case currency
    /// An item stack in the inventory.
    case item
    /// An entitlement such as `remove_ads`.
    case entitlement
}

/// One change a fulfillment made: what the ledger record says was granted.
///
/// Refunds read these lines, never the current catalog, because the catalog may have changed.
public struct GrantLine: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Currency, item or entitlement.
    public var kind: AssetKind
    /// The catalog ID of the currency, item or entitlement.
    public var id: String
    /// Units granted; 1 for an entitlement.
    public var quantity: Int64

    /// Creates a line.
    public init(kind: AssetKind, id: String, quantity: Int64) {
        self.kind = kind
        self.id = id
        self.quantity = quantity
    }

    /// `currency:gems x100`.
    public var description: String { "\(kind.rawValue):\(id) x\(quantity)" }
}
