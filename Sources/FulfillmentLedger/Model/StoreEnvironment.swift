/// The environment a store transaction was made in.
///
/// Kept as a raw value so an environment name added by a store later is preserved.
public struct StoreEnvironment: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The environment's name as the store reports it.
    public let rawValue: String

    /// Wraps an environment name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps an environment name given as a literal.
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

    /// Real money, real players.
    public static let production = StoreEnvironment(rawValue: "production")
    /// Store sandbox or test accounts; never real money.
    public static let sandbox = StoreEnvironment(rawValue: "sandbox")

    /// The raw name.
    public var description: String { rawValue }
}
