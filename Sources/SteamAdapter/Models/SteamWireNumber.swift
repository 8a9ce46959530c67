import Foundation
import FulfillmentLedger

/// Steam's Web API writes 64-bit numbers as JSON strings (a double cannot hold them) and
/// smaller ones as numbers, not always the same way between methods: both forms are read.
enum SteamWireNumber {
    /// A required unsigned number at `key`.
    static func uint64<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> UInt64 {
        guard let value = try uint64IfPresent(container, key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: container.codingPath, debugDescription: "\(key.stringValue) is missing"))
        }
        return value
    }

    /// An optional unsigned number at `key`: a decimal string of at most 20 digits, or a number.
    static func uint64IfPresent<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> UInt64? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        if let text = try? container.decode(String.self, forKey: key) {
            guard let value = parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is not an unsigned 64-bit number")
            }
            return value
        }
        return try container.decode(UInt64.self, forKey: key)
    }

    /// An optional RFC 3339 time at `key`.
    static func dateIfPresent<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = LedgerJSON.parseDate(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is not an RFC 3339 time")
        }
        return date
    }

    /// A decimal unsigned 64-bit number with no sign, space or leading zero; nil otherwise.
    static func parse(_ text: String) -> UInt64? {
        guard (1...20).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            text == "0" || text.utf8.first != 0x30
        else { return nil }
        return UInt64(text)
    }
}
