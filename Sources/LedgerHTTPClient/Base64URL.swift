import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every JWT segment.
package enum Base64URL {
    /// Encodes `bytes` as unpadded base64url.
    package static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// `value` as JSON with sorted keys and unescaped slashes, then unpadded base64url: one
    /// JWT segment, byte-for-byte the same for the same value.
    package static func encodeJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encode(try encoder.encode(value))
    }

    /// Decodes unpadded base64url; nil for any character outside the alphabet, padding, or a
    /// length no encoder produces.
    package static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var base64 = ""
        base64.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case "A"..."Z", "a"..."z", "0"..."9": base64.unicodeScalars.append(character)
            case "-": base64 += "+"
            case "_": base64 += "/"
            default: return nil
            }
        }
        guard base64.count % 4 != 1 else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
