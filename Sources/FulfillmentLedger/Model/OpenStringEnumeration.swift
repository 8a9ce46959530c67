/// A string-backed value set that stays open: it encodes and decodes as a bare string,
/// so a value a store or a newer version adds survives a round trip instead of failing.
public protocol OpenStringEnumeration: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral where RawValue == String
{
    /// Wraps a raw name; every name is accepted.
    init(rawValue: String)
}

extension OpenStringEnumeration {
    /// Wraps a name given as a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Decodes a bare string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The raw name.
    public var description: String { rawValue }
}
