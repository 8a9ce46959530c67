/// A connection's prepared statements, cached by their SQL text, with a faster first look-up
/// by where that text is stored.
///
/// Looking a statement up by its text hashes every byte of it, and the SQL of a fulfillment's
/// statements is several kilobytes: about 15,000 instructions per fulfillment, counted with
/// callgrind. The ledger passes the same constants every time, so the cache first looks the
/// text up by the address and length of its UTF-8 storage, and hashes the text only when that
/// misses. An entry keeps its text, so that storage stays allocated and its address cannot
/// pass to another string while the entry lives.
struct StatementCache {
    /// Where a string's UTF-8 bytes are stored, and how many there are.
    private struct StorageKey: Hashable {
        let address: UInt
        let count: Int
    }

    /// The longest string Swift may store inline (a small string, whose bytes are copied to a
    /// temporary buffer when read): such strings are looked up by text only.
    private static let inlineByteCountMax = 15

    private var byText: [String: SQLiteStatement] = [:]
    private var byStorage: [StorageKey: (sql: String, statement: SQLiteStatement)] = [:]

    /// Entries cached.
    var count: Int { byText.count }

    /// The statement cached for `sql`, if any. A hit by text also remembers where this `sql`
    /// is stored, up to `storagesPerTextMax` storages per text.
    mutating func statement(for sql: String) -> SQLiteStatement? {
        let key = Self.storageKey(sql)
        if let key, let entry = byStorage[key] { return entry.statement }
        guard let statement = byText[sql] else { return nil }
        if let key, byStorage.count < byText.count * Self.storagesPerTextMax { byStorage[key] = (sql, statement) }
        return statement
    }

    /// Caches `statement` for `sql`.
    mutating func insert(_ statement: SQLiteStatement, for sql: String) {
        byText[sql] = statement
        if let key = Self.storageKey(sql) { byStorage[key] = (sql, statement) }
    }

    /// Most storages remembered per cached text: a text passed from a few places (copies of a
    /// constant) is found fast from each, and one built anew at every call cannot grow the
    /// cache without bound.
    private static let storagesPerTextMax = 4

    /// Finalizes every statement.
    mutating func removeAll() {
        byStorage.removeAll()
        byText.removeAll()
    }

    private static func storageKey(_ sql: String) -> StorageKey? {
        let count = sql.utf8.count
        guard count > inlineByteCountMax else { return nil }
        // nil for a string that is not stored as contiguous UTF-8 (a bridged one): found by text.
        let address = sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
        return address.map { StorageKey(address: $0, count: count) }
    }
}
