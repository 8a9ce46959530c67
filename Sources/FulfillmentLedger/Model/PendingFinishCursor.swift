/// Where a page of pending finishes ends: the last row listed, in the order pending finishes are
/// listed (oldest first, then store and transaction ID). The next page starts after it, so rows finished in
/// between never shift the pages.
public struct PendingFinishCursor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// When the last row listed was queued, in the ledger's milliseconds.
    public var enqueuedAtMilliseconds: Int64
    /// Its transaction.
    public var key: TransactionKey

    /// Creates a cursor.
    public init(enqueuedAtMilliseconds: Int64, key: TransactionKey) {
        self.enqueuedAtMilliseconds = enqueuedAtMilliseconds
        self.key = key
    }

    /// Reads the text form `MILLISECONDS/STORE/TRANSACTION-ID` (the transaction ID may hold `/`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let milliseconds = Int64(parts[0]), !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        self.init(
            enqueuedAtMilliseconds: milliseconds,
            key: TransactionKey(store: PlatformStore(rawValue: parts[1]), transactionID: parts[2]))
    }

    /// `MILLISECONDS/STORE/TRANSACTION-ID`, what `ledger doctor --after` takes.
    public var description: String { "\(enqueuedAtMilliseconds)/\(key)" }

    /// Decodes the text form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let cursor = PendingFinishCursor(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected MILLISECONDS/STORE/TRANSACTION-ID, found \(text)")
        }
        self = cursor
    }

    /// Encodes the text form, so JSON output holds the very value `--after` takes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
