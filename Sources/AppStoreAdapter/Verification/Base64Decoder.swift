/// Strict base64 decoding for JWS: the URL-safe alphabet with optional padding for the three
/// segments (RFC 7515 §2), the standard alphabet with padding for `x5c` (RFC 7515 §4.1.6).
///
/// Written here rather than taken from Foundation because Foundation's decoder knows neither
/// the URL alphabet nor optional padding, and a hand mapping would copy the whole input.
enum Base64Decoder {
    /// The two alphabets JWS uses.
    enum Alphabet {
        /// `A-Z a-z 0-9 + /`, padding required.
        case standard
        /// `A-Z a-z 0-9 - _`, padding optional.
        case url
    }

    /// The longest encoded input accepted; callers bound their input well below this.
    static let maximumEncodedByteCount = 1 << 20

    /// Marks a byte that is not in the alphabet.
    private static let invalid: UInt8 = 0xFF

    /// Value of each byte in the standard alphabet.
    private static let standardTable = table(symbol62: UInt8(ascii: "+"), symbol63: UInt8(ascii: "/"))
    /// Value of each byte in the URL-safe alphabet.
    private static let urlTable = table(symbol62: UInt8(ascii: "-"), symbol63: UInt8(ascii: "_"))

    /// Decodes `encoded`, or returns nil for any character outside the alphabet, a bad
    /// length, or misplaced padding.
    static func decode(_ encoded: ArraySlice<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        guard encoded.count <= maximumEncodedByteCount else { return nil }
        return encoded.withUnsafeBufferPointer { input in
            var end = input.count
            // At most two padding characters can ever be needed.
            while end > 0, input.count - end < 2, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
            let paddingCount = input.count - end
            switch alphabet {
            case .standard:
                guard input.count % 4 == 0 else { return nil }
            case .url:
                guard paddingCount == 0 || input.count % 4 == 0 else { return nil }
            }
            // One leftover character carries only six bits: never a whole byte.
            guard end % 4 != 1 else { return nil }
            let table = alphabet == .standard ? standardTable : urlTable
            return decodeUnpadded(UnsafeBufferPointer(rebasing: input[..<end]), table: table)
        }
    }

    /// Decodes a string's UTF-8 bytes.
    static func decode(_ encoded: String, alphabet: Alphabet) -> [UInt8]? {
        guard encoded.utf8.count <= maximumEncodedByteCount else { return nil }
        return decode(ArraySlice(encoded.utf8), alphabet: alphabet)
    }

    /// Decodes characters with the padding already removed.
    private static func decodeUnpadded(_ input: UnsafeBufferPointer<UInt8>, table: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        let valid = table.withUnsafeBufferPointer { table in
            for character in input {
                let value = table[Int(character)]
                guard value != invalid else { return false }
                accumulator = (accumulator << 6) | UInt32(value)
                bitCount += 6
                if bitCount >= 8 {
                    bitCount -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                }
            }
            return true
        }
        return valid ? output : nil
    }

    /// Builds a lookup table for the letters, digits and the two alphabet-specific symbols.
    private static func table(symbol62: UInt8, symbol63: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for (value, character) in letters.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(symbol62)] = 62
        table[Int(symbol63)] = 63
        return table
    }
}
