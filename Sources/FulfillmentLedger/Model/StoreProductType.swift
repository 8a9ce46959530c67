/// What the store itself says a product is, when its proof says (App Store `type`).
///
/// The catalog's `ProductKind` decides how a purchase is granted and keyed; a store that names the
/// type lets the pipeline refuse a purchase whose type disagrees with the catalog instead of granting
/// it with the wrong semantics. Open: a type a store adds later is kept raw and refused as unsupported.
public struct StoreProductType: OpenStringEnumeration {
    /// The type's stable name, or the store's own name for a type this version does not know.
    public let rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Used up and bought again (App Store `Consumable`).
    public static let consumable = StoreProductType(rawValue: "consumable")
    /// Bought once and kept (App Store `Non-Consumable`).
    public static let nonConsumable = StoreProductType(rawValue: "nonConsumable")
    /// A subscription that renews by itself (App Store `Auto-Renewable Subscription`).
    public static let autoRenewable = StoreProductType(rawValue: "autoRenewable")
    /// A subscription for a fixed time that does not renew (App Store `Non-Renewing Subscription`).
    public static let nonRenewing = StoreProductType(rawValue: "nonRenewing")

    /// A Google Play rental (a one-time product's rent offer): granted only by a catalog product
    /// that maps its purchase option or offer (`Product.purchaseOption`), as that product says.
    public static let playRentOffer = StoreProductType(rawValue: "playRentOffer")
    /// A Google Play pre-order (a one-time product's pre-order offer): granted only by a catalog
    /// product that maps its purchase option or offer, as that product says.
    public static let playPreorderOffer = StoreProductType(rawValue: "playPreorderOffer")

    /// Whether the ledger grants this type only through a catalog product that maps the
    /// purchase option it was bought through (a rental, a pre-order), never through the
    /// product's plain mapping.
    public var needsPurchaseOptionMapping: Bool { self == .playRentOffer || self == .playPreorderOffer }

    /// The catalog kind this type is granted as; nil for a type the ledger does not fulfill
    /// (non-renewing subscriptions, and types it does not know).
    public var productKind: ProductKind? {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        default: nil
        }
    }
}
