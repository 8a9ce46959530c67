import FulfillmentLedger

/// The `appAccountToken` a game sets on its App Store purchases for a player, derived from the
/// player ID so the ledger can recompute it instead of storing a mapping.
///
/// Use the same function on both sides: the game passes `AppAccountToken.forPlayer(playerID)`
/// to StoreKit, and the ledger sets `LedgerConfiguration.accountBinding = AppAccountToken.forPlayer`.
public enum AppAccountToken {
    /// The token for `playerID`: the first 16 bytes of SHA-256 of its UTF-8 bytes, with the
    /// version nibble set to 8 (RFC 9562 custom UUID) and the RFC 4122 variant, formatted as a
    /// lowercase UUID string such as `3f1b0c7e-5a2d-8c4e-9f10-2b3c4d5e6f70`.
    public static func forPlayer(_ playerID: String) -> String {
        var bytes = Array(SHA256.hash(Array(playerID.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// `token` in the canonical lowercase form, or nil when it is not a UUID string
    /// (8-4-4-4-12 hexadecimal digits). StoreKit and Foundation's `UUID.uuidString` write
    /// uppercase; compare tokens only in this form.
    public static func canonical(_ token: String) -> String? {
        let utf8 = Array(token.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        var high: UInt8?
        for (index, character) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = hexValue(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return format(bytes)
    }

    /// 16 bytes as a lowercase 8-4-4-4-12 UUID string.
    private static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of one hexadecimal digit, either case.
    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
