/// A SHA-256 checksum of a stream of rows, the same on every engine for the same rows in the
/// same order: `ledger migrate` prints it for the balances of both ledgers.
///
/// Each row is its printed values (`LedgerCopyValue.printed`), each prefixed by its byte count
/// (NULL by a marker), so no two different rows encode alike. Rows are hashed a page at a time
/// and the page hashes chained, so memory stays bounded however many rows there are.
package struct LedgerRowDigest: Sendable {
    /// Rows hashed together before their hash joins the chain.
    static let pageRowCount = 1_024

    private var chain: [UInt8] = SHA256.hash([])
    private var page: [UInt8] = []
    private var pageRows = 0
    /// Rows appended so far.
    package private(set) var rowCount: Int64 = 0

    /// An empty digest.
    package init() {}

    /// Adds a row.
    package mutating func append(_ values: [String?]) {
        for value in values {
            if let value {
                let bytes = Array(value.utf8)
                page += Array(String(bytes.count).utf8) + [0x3A] + bytes
            } else {
                page.append(0x2D)
            }
        }
        page.append(0x0A)
        pageRows += 1
        rowCount += 1
        if pageRows == Self.pageRowCount { flush() }
    }

    /// The checksum of every row appended, in hexadecimal.
    package var hexDigest: String {
        var copy = self
        copy.flush()
        return SHA256.hexDigest(SHA256.hash(copy.chain + Array(String(rowCount).utf8)))
    }

    private mutating func flush() {
        guard pageRows > 0 else { return }
        chain = SHA256.hash(chain + SHA256.hash(page))
        page.removeAll(keepingCapacity: true)
        pageRows = 0
    }
}
