import Foundation

/// The one JSON form of the ledger's values, shared by the HTTP handlers and the CLI's output:
/// sorted keys, unescaped slashes, dates as ISO 8601 strings with milliseconds (the precision
/// the ledger keeps). Docs/Integration.md ("JSON shapes") documents each outcome's shape.
public enum LedgerJSON {
    /// An encoder that writes the ledger's JSON form.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.ledgerISO8601)
        }
        return encoder
    }

    /// A decoder that reads what `encoder()` writes, and RFC 3339 dates with or without
    /// fractional seconds (`parseDate`).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 date such as 2026-11-29T12:00:00Z")
            }
            return date
        }
        return decoder
    }

    /// Parses an RFC 3339 timestamp (`2026-11-29T12:00:00Z`, with or without fractional
    /// seconds, `Z` or an offset), or returns nil. Strict: a field out of its range
    /// (`12:99`, February 30) or a missing offset is refused, never carried into the next
    /// hour or month (`RFC3339Timestamp`).
    public static func parseDate(_ text: String) -> Date? {
        RFC3339Timestamp.parse(text)
    }

    /// `value` in the ledger's JSON form. The ledger's outcome types always encode.
    public static func encode<T: Encodable>(_ value: T) -> Data {
        do {
            return try encoder().encode(value)
        } catch {
            preconditionFailure("ledger values always encode: \(error)")
        }
    }
}

/// A coding key made from any string, for the flat shapes whose keys depend on the case.
package struct LedgerJSONKey: CodingKey, ExpressibleByStringLiteral {
    package let stringValue: String
    package var intValue: Int? { nil }

    package init(_ stringValue: String) { self.stringValue = stringValue }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
    package init(stringLiteral value: String) { self.stringValue = value }
}
