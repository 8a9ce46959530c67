/// Transactions read from a paginated history (Get Transaction History, Get Refund History):
/// one page, or several read in a row.
public struct AppStoreTransactionPage: Sendable {
    /// The verified transactions, in Apple's order.
    public var transactions: [AppStoreSignedTransaction]
    /// Apple's `revision`: pass it to read on from here.
    public var revision: String?
    /// Whether Apple has more after `revision` (a read that stopped at its page limit says so).
    public var hasMore: Bool

    /// Creates a page.
    public init(transactions: [AppStoreSignedTransaction], revision: String?, hasMore: Bool) {
        self.transactions = transactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
