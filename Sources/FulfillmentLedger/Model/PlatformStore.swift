/// The platform store a transaction came from, such as the App Store or Google Play.
///
/// A raw-value struct rather than an enum, so a store name this version does not know
/// survives decoding and round-trips unchanged.
public struct PlatformStore: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    /// The store's stable name, as written in catalogs, ledgers and CLI input.
    public let rawValue: String

    /// Wraps a store name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a store name given as a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes a bare string.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Apple's App Store (StoreKit).
    public static let appStore = PlatformStore(rawValue: "appStore")
    /// Google Play Billing.
    public static let playStore = PlatformStore(rawValue: "playStore")
    /// The built-in test store, which accepts only the sandbox environment.
    public static let test = PlatformStore(rawValue: "test")

    /// The stores a catalog may map product IDs for.
    public static let known: [PlatformStore] = [.appStore, .playStore, .test]

    /// The raw name.
    public var description: String { rawValue }

    /// Orders by raw name, for stable output.
    public static func < (lhs: PlatformStore, rhs: PlatformStore) -> Bool { lhs.rawValue < rhs.rawValue }
}
