/// What the store says about a transaction's payment.
///
/// A raw-value struct so a state a store adds later is kept and treated as "not purchased".
public struct PurchaseState: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The state's name.
    public let rawValue: String

    /// Wraps a state name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a state name given as a literal.
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

    /// Paid; the only state that grants.
    public static let purchased = PurchaseState(rawValue: "purchased")
    /// Awaiting payment (for example Ask to Buy or a cash payment); grants nothing yet.
    public static let pending = PurchaseState(rawValue: "pending")
    /// The payment did not happen or was cancelled; never grants.
    public static let cancelled = PurchaseState(rawValue: "cancelled")

    /// The raw name.
    public var description: String { rawValue }
}
