/// The platform store a transaction came from, such as the App Store or Google Play.
///
/// A raw-value struct rather than an enum, so a store name this version does not know
/// survives decoding and round-trips unchanged.
public struct PlatformStore: OpenStringEnumeration, Comparable {
    /// The store's stable name, as written in catalogs, ledgers and CLI input.
    public let rawValue: String

    /// Wraps a store name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple's App Store (StoreKit).
    public static let appStore = PlatformStore(rawValue: "appStore")
    /// Google Play Billing.
    public static let playStore = PlatformStore(rawValue: "playStore")
    /// Stripe Checkout, for web shops: a catalog maps a Stripe Price ID (`price_…`).
    public static let stripe = PlatformStore(rawValue: "stripe")
    /// Steam microtransactions (ISteamMicroTxn), for PC: a catalog maps the game's 32-bit item ID.
    public static let steam = PlatformStore(rawValue: "steam")
    /// The built-in test store, which accepts only the sandbox environment.
    public static let test = PlatformStore(rawValue: "test")

    /// The stores a catalog may map product IDs for.
    public static let known: [PlatformStore] = [.appStore, .playStore, .stripe, .steam, .test]

    /// Orders by raw name, for stable output.
    public static func < (lhs: PlatformStore, rhs: PlatformStore) -> Bool { lhs.rawValue < rhs.rawValue }
}
