/// One row of a query's result, copied out of the engine, with typed reads that check what
/// they read: a value of the wrong type is an integrity failure naming the column, never a
/// silent zero.
///
/// An engine may hand over its values as it has them: SQLite by stored type, PostgreSQL in
/// its text format. So an integer read accepts an integer or the text of one, and a boolean
/// read accepts 0 or 1, or PostgreSQL's `t` or `f`.
public struct SQLRow: Sendable {
    /// One value per column, in the query's order.
    public let values: [SQLValue]
    /// Where the row came from, for errors: the ledger's location.
    let location: String

    /// A row of `values`, read from the ledger at `location`.
    public init(values: [SQLValue], location: String) {
        self.values = values
        self.location = location
    }

    /// Whether column `index` is NULL (or missing).
    public func isNull(_ index: Int) -> Bool {
        guard values.indices.contains(index) else { return true }
        return values[index] == .null
    }

    /// Column `index` as text, or nil for NULL.
    public func optionalText(_ index: Int) throws(LedgerError) -> String? {
        switch try value(index) {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .bool: throw unexpected(index, "holds a boolean, not text")
        }
    }

    /// Column `index` as text; NULL is an integrity failure.
    public func text(_ index: Int) throws(LedgerError) -> String {
        guard let text = try optionalText(index) else { throw unexpected(index, "is NULL") }
        return text
    }

    /// Column `index` as a 64-bit integer, or nil for NULL.
    public func optionalInt64(_ index: Int) throws(LedgerError) -> Int64? {
        switch try value(index) {
        case .null: return nil
        case .integer(let number): return number
        case .text(let text):
            guard let number = Int64(text) else { throw unexpected(index, "holds \(text.prefix(40)), not a 64-bit integer") }
            return number
        case .bool(let flag): return flag ? 1 : 0
        }
    }

    /// Column `index` as a 64-bit integer; NULL is an integrity failure.
    public func int64(_ index: Int) throws(LedgerError) -> Int64 {
        guard let number = try optionalInt64(index) else { throw unexpected(index, "is NULL") }
        return number
    }

    /// Column `index` as a boolean, or nil for NULL.
    public func optionalBool(_ index: Int) throws(LedgerError) -> Bool? {
        switch try value(index) {
        case .null: return nil
        case .bool(let flag): return flag
        case .integer(0), .text("f"), .text("0"): return false
        case .integer(1), .text("t"), .text("1"): return true
        case .integer(let number): throw unexpected(index, "holds \(number), not a boolean")
        case .text(let text): throw unexpected(index, "holds \(text.prefix(40)), not a boolean")
        }
    }

    /// Column `index` as a boolean; NULL is an integrity failure.
    public func bool(_ index: Int) throws(LedgerError) -> Bool {
        guard let flag = try optionalBool(index) else { throw unexpected(index, "is NULL") }
        return flag
    }

    private func value(_ index: Int) throws(LedgerError) -> SQLValue {
        guard values.indices.contains(index) else {
            throw unexpected(index, "is past the last of the row's \(values.count) columns")
        }
        return values[index]
    }

    private func unexpected(_ index: Int, _ problem: String) -> LedgerError {
        .integrityCheckFailed(location: location, detail: "unreadable value: column \(index) \(problem)")
    }
}
