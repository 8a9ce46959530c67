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
    /// Units granted; 1 for an entitlement the purchase pays for.
    ///
    /// In a revocation's effect: negative for what was taken back, positive for what was
    /// given back, and 0 for an entitlement the purchase stopped (or resumed) paying for
    /// while another purchase kept it owned.
    public var quantity: Int64
    /// For a currency grant: how much of `quantity` went to repay debt from an earlier
    /// clawback (the balance was negative). A refund of this grant restores that debt,
    /// whatever the product's refund policy. Nil when none did.
    public var debtRepaid: Int64?

    /// Creates a line.
    public init(kind: AssetKind, id: String, quantity: Int64, debtRepaid: Int64? = nil) {
        self.kind = kind
        self.id = id
        self.quantity = quantity
        self.debtRepaid = debtRepaid
    }

    /// `currency:gems x100`, with `(60 repaid debt)` when some of it did.
    public var description: String {
        "\(kind.rawValue):\(id) x\(quantity)" + (debtRepaid.map { " (\($0) repaid debt)" } ?? "")
    }
}
