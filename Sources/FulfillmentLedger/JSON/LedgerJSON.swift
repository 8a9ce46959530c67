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

    /// A decoder that reads what `encoder()` writes, and ISO 8601 dates with or without
    /// fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date such as 2026-11-29T12:00:00Z")
            }
            return date
        }
        return decoder
    }

    /// Parses ISO 8601 with or without fractional seconds, or returns nil.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if let date = try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: .iso8601)
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
