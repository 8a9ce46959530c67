import Foundation

/// A value in a Google Play payload (a push, `purchases.products.get`, `voidedpurchases.list`)
/// that the adapter refuses before building anything from it: a time or quantity out of range,
/// an identifier too long, a required field missing. Nothing is applied from such a payload.
public enum PlayPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A required field is absent or empty.
    case missingField(String)
    /// A millisecond time is not a decimal integer.
    case malformedMilliseconds(field: String, value: String)
    /// A millisecond time lies outside `Date.ledgerMillisecondsRange`.
    case millisecondsOutOfRange(field: String, value: String)
    /// A quantity lies outside the range its field allows.
    case quantityOutOfRange(field: String, value: Int)
    /// An identifier (purchase token, order ID, message ID) is longer than its limit in
    /// `PlayPayloadLimits`.
    case identifierTooLong(field: String, byteCount: Int)
    /// An RFC 3339 timestamp (`purchases.subscriptionsv2`) does not parse.
    case malformedTimestamp(field: String, value: String)
    /// An amount of money (`orders.get`'s `Money`) that breaks Google's rules: `units` not a
    /// decimal integer, `nanos` outside ±999,999,999 or of the other sign, a currency code that
    /// is not three letters, or a sum that overflows.
    case malformedMoney(field: String, detail: String)

    /// The stable numeric code (Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .missingField: 8201
        case .malformedMilliseconds: 8202
        case .millisecondsOutOfRange: 8203
        case .quantityOutOfRange: 8204
        case .identifierTooLong: 8205
        case .malformedTimestamp: 8206
        case .malformedMoney: 8207
        }
    }

    /// What is wrong, naming the field and (shortened) value.
    public var description: String {
        switch self {
        case .missingField(let field): "\(field) is missing"
        case .malformedMilliseconds(let field, let value): "\(field) \(Self.quoted(value)) is not a decimal integer"
        case .millisecondsOutOfRange(let field, let value):
            "\(field) \(Self.quoted(value)) is outside \(Date.ledgerMillisecondsRange.lowerBound)"
                + "...\(Date.ledgerMillisecondsRange.upperBound) milliseconds"
        case .quantityOutOfRange(let field, let value): "\(field) \(value) is out of range"
        case .identifierTooLong(let field, let byteCount): "\(field) is \(byteCount) bytes long, more than allowed"
        case .malformedTimestamp(let field, let value): "\(field) \(Self.quoted(value)) is not an RFC 3339 timestamp"
        case .malformedMoney(let field, let detail): "\(field) is not an amount of money: \(detail)"
        }
    }

    /// Characters of a refused value quoted in a message.
    static let quotedCharacterCountMax = 40

    private static func quoted(_ value: String) -> String {
        value.count <= quotedCharacterCountMax ? "\"\(value)\"" : "\"\(value.prefix(quotedCharacterCountMax))…\""
    }
}
