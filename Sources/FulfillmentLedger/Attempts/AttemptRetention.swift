/// The attempts journal's bounds, enforced by every write to it: the journal never grows past
/// them, whatever arrives.
///
/// Each row is at most about `2 × transactionIDByteCountMax + reasonByteCountMax` plus the
/// player and product IDs (some 10 KB with the defaults), so the journal holds at most
/// `(countMax + unverifiedCountMax)` such rows.
public struct AttemptRetention: Hashable, Sendable {
    /// Most verified attempts kept; the oldest goes when another is written.
    public var countMax: Int
    /// Most unverified attempts kept (the store's proof failed: anyone can send those), under a
    /// budget of their own so that a flood of them never pushes a verified attempt out.
    public var unverifiedCountMax: Int
    /// Attempts older than this go as new ones are written.
    public var ageSecondsMax: Int64
    /// Longest reason kept, in UTF-8 bytes; a longer one is cut at a character boundary.
    public var reasonByteCountMax: Int
    /// Most expired attempts one write removes, so a write after a long quiet spell stays short;
    /// the rest go with the next writes.
    public static let expiredCountPerWriteMax = 16

    /// Creates bounds.
    public init(countMax: Int, unverifiedCountMax: Int, ageSecondsMax: Int64, reasonByteCountMax: Int) {
        self.countMax = countMax
        self.unverifiedCountMax = unverifiedCountMax
        self.ageSecondsMax = ageSecondsMax
        self.reasonByteCountMax = reasonByteCountMax
    }

    /// 20,000 verified and 5,000 unverified attempts, 90 days, reasons up to 512 bytes.
    public static let standard = AttemptRetention(
        countMax: 20_000, unverifiedCountMax: 5_000, ageSecondsMax: 90 * 24 * 60 * 60, reasonByteCountMax: 512)

    /// The count bound of `record`'s budget.
    public func countMax(verified: Bool) -> Int { verified ? countMax : unverifiedCountMax }

    /// Whether every bound is usable.
    public var isValid: Bool { countMax >= 1 && unverifiedCountMax >= 1 && ageSecondsMax >= 1 && reasonByteCountMax >= 16 }

    /// `reason` cut to `reasonByteCountMax` bytes at a character boundary, marked with "…" when cut.
    public func clipped(_ reason: String) -> String {
        guard reason.utf8.count > reasonByteCountMax else { return reason }
        var kept = ""
        var byteCount = 0
        let budget = reasonByteCountMax - 3  // "…" is 3 bytes
        for character in reason {
            let size = character.utf8.count
            guard byteCount + size <= budget else { break }
            kept.append(character)
            byteCount += size
        }
        return kept + "…"
    }
}
