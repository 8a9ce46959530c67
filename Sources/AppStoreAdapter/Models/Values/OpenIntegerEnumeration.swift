/// An integer-backed value set that stays open, like `OpenStringEnumeration` for Apple's
/// numeric enums: a value Apple adds later decodes, survives a round trip, and is never lost.
public protocol OpenIntegerEnumeration: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral where RawValue == Int
{
    /// Wraps a raw number; every number is accepted.
    init(rawValue: Int)
}

extension OpenIntegerEnumeration {
    /// Wraps a number given as a literal.
    public init(integerLiteral value: Int) { self.init(rawValue: value) }

    /// Decodes a bare number.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes as a bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The raw number.
    public var description: String { String(rawValue) }
}
