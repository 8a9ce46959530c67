extension LedgerPrefill {
    /// Added to the index before mixing the player choice, so a purchase's player does not
    /// follow from its transaction ID's bits.
    static let playerSalt: UInt64 = 0x5DEE_CE66_D1CE_4E5B

    /// The transaction ID of purchase `index`: 32 hex digits in UUID groups, from a bijective
    /// hash of the index, so IDs never repeat and land all over the primary key. The bench
    /// gives its new purchases indexes past the pre-fill's count.
    public static func transactionID(index: Int) -> String {
        let high = mix(UInt64(index) << 1)
        let low = mix(UInt64(index) << 1 | 1)
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for (offset, word) in [high, low].enumerated() {
            for nibble in 0..<16 {
                switch offset * 16 + nibble {
                case 8, 12, 16, 20: bytes.append(UInt8(ascii: "-"))
                default: break
                }
                let value = UInt8((word >> UInt64(60 - 4 * nibble)) & 0xF)
                bytes.append(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The player (0 ..< `playerCount`) who made purchase `index`, hashed so every player
    /// buys now and then, as in a live game.
    public static func playerNumber(transactionIndex index: Int, playerCount: Int) -> Int {
        precondition(playerCount >= 1, "playerCount must be at least 1")
        return Int(mix(UInt64(index) &+ playerSalt) % UInt64(playerCount))
    }

    /// The player ID of player `number`, such as `player-0004711`.
    public static func playerID(number: Int) -> String {
        let digits = String(number)
        return "player-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// SplitMix64's finalizer: a bijection on 64 bits, so distinct inputs give distinct outputs.
    static func mix(_ value: UInt64) -> UInt64 {
        var mixed = value &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
