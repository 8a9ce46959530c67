import FulfillmentLedger

/// The kind of in-app purchase of a transaction (`type`).
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct TransactionType: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An auto-renewable subscription.
    public static let autoRenewableSubscription = TransactionType(rawValue: "Auto-Renewable Subscription")
    /// A purchase owned once and kept, such as a level pack.
    public static let nonConsumable = TransactionType(rawValue: "Non-Consumable")
    /// A purchase used up and bought again, such as coins.
    public static let consumable = TransactionType(rawValue: "Consumable")
    /// A subscription that does not renew by itself.
    public static let nonRenewingSubscription = TransactionType(rawValue: "Non-Renewing Subscription")
}

extension TransactionType {
    /// The ledger's name for this type; a type Apple adds later keeps Apple's raw value, and the
    /// pipeline refuses it as unsupported.
    public var storeProductType: StoreProductType {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewableSubscription: .autoRenewable
        case .nonRenewingSubscription: .nonRenewing
        default: StoreProductType(rawValue: rawValue)
        }
    }
}
