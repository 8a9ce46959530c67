/// The order in which new ledger keys arrive, which decides how many B-tree leaves a
/// fulfillment and its finish mark touch: keys in order land on the same rightmost leaf,
/// keys at random on any.
enum BenchKeyOrder: String, Encodable, CaseIterable {
    /// One width of digits, rising: App Store transaction IDs.
    case rising
    /// 32 hex digits, scattered: Google Play purchase tokens and order IDs.
    case random

    /// A fixed scatter of `index` (SplitMix64), as 32 hex digits, so runs compare.
    static func randomHex(_ index: Int) -> String {
        var state = UInt64(truncatingIfNeeded: index) &+ 0x9E37_79B9_7F4A_7C15
        var digits = ""
        for _ in 0..<2 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            let hex = String(mixed, radix: 16)
            digits += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return digits
    }
}
