/// One difference between two catalogs, explained for the designer reviewing it.
public struct CatalogChange: Hashable, Sendable, Codable {
    /// What changed.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A new product.
        case productAdded
        /// A product is gone.
        case productRemoved
        /// A product's ID changed (the same store product IDs now map to a new catalog ID).
        case productRenamed
        /// The product's kind changed (consumable, non-consumable, auto-renewable subscription).
        case kindChanged
        /// What one purchase grants changed.
        case rewardsChanged
        /// The purchase limit changed.
        case limitChanged
        /// The refund policy changed.
        case refundPolicyChanged
        /// A store product ID was added to a product.
        case storeIDAdded
        /// A store product ID no longer maps to the product.
        case storeIDRemoved
        /// A store product ID now maps to a different catalog product.
        case storeIDRemapped
        /// A new entitlement is declared.
        case entitlementAdded
        /// A declared entitlement is gone.
        case entitlementRemoved
        /// An entitlement's ID changed: the old one is gone and a product that granted it grants the new one.
        case entitlementRenamed
        /// An entitlement's `removesAds` flag changed.
        case removesAdsChanged
        /// An entitlement's `unknownPolicy` changed.
        case unknownPolicyChanged
        /// A new currency is declared.
        case currencyAdded
        /// A declared currency is gone.
        case currencyRemoved
        /// A currency's ID changed: the old one is gone and a product that granted it grants the new one.
        case currencyRenamed
        /// A new item is declared.
        case itemAdded
        /// A declared item is gone.
        case itemRemoved
        /// An item's ID changed: the old one is gone and a product that granted it grants the new one.
        case itemRenamed
        /// A non-consumable's or subscription's `familySharing` policy changed.
        case familySharingChanged
        /// What each paid period of an auto-renewable subscription grants changed.
        case periodRewardsChanged
        /// An auto-renewable subscription moved to another subscription group.
        case subscriptionGroupChanged
    }

    /// How much a change matters to players who already paid.
    public enum Severity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
        /// Affects only future purchases, or nothing any player holds.
        case safe
        /// Takes nothing paid for away, but changes what players already hold or are offered:
        /// read it before shipping.
        case review
        /// Can take from players what they paid for, or strand or misdirect paid purchases.
        case dangerous

        /// Orders `safe < review < dangerous`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// What a change is about.
    public enum Subject: String, Hashable, Sendable, Codable, CaseIterable {
        /// A product.
        case product
        /// A currency definition.
        case currency
        /// An item definition.
        case item
        /// An entitlement definition.
        case entitlement
    }

    /// What changed.
    public var kind: Kind
    /// Whether a product or a currency, item or entitlement definition changed.
    public var subject: Subject
    /// The product or definition concerned (the old ID for a rename or removal).
    public var id: String
    /// How much it matters to players who already paid.
    public var severity: Severity
    /// What it means, in a designer's words.
    public var message: String
    /// How many times the ledger has sold the product (or, for a store product ID, sold it
    /// under that ID), when a ledger was given.
    public var soldCount: Int?
    /// How many players own the entitlement, or hold the currency or item, when a ledger was given.
    public var ownerCount: Int?

    /// Creates a change.
    public init(
        kind: Kind, subject: Subject, id: String, severity: Severity, message: String, soldCount: Int? = nil,
        ownerCount: Int? = nil
    ) {
        self.kind = kind
        self.subject = subject
        self.id = id
        self.severity = severity
        self.message = message
        self.soldCount = soldCount
        self.ownerCount = ownerCount
    }

    /// The catalog product concerned, for a product change.
    public var productID: String? { subject == .product ? id : nil }
    /// Whether the change can take what players paid for, or orphan or misgrant purchases already sold.
    public var dangerous: Bool { severity == .dangerous }

    private enum CodingKeys: String, CodingKey {
        case kind, subject, id, productID, severity, dangerous, message, soldCount, ownerCount
    }

    /// Decodes the form `encode(to:)` writes; `productID` and `dangerous` are derived, not read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        subject = try container.decode(Subject.self, forKey: .subject)
        id = try container.decode(String.self, forKey: .id)
        severity = try container.decode(Severity.self, forKey: .severity)
        message = try container.decode(String.self, forKey: .message)
        soldCount = try container.decodeIfPresent(Int.self, forKey: .soldCount)
        ownerCount = try container.decodeIfPresent(Int.self, forKey: .ownerCount)
    }

    /// Encodes every field, plus `productID` (product changes) and `dangerous` for readers of the
    /// earlier form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(subject, forKey: .subject)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(productID, forKey: .productID)
        try container.encode(severity, forKey: .severity)
        try container.encode(dangerous, forKey: .dangerous)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(soldCount, forKey: .soldCount)
        try container.encodeIfPresent(ownerCount, forKey: .ownerCount)
    }
}
