import Foundation

/// A value bound to a statement's parameter or read from a row: what the ledger stores,
/// which is integers, text and booleans only (no reals, no blobs).
///
/// An engine binds each as its own type: SQLite stores a boolean as the integer 0 or 1,
/// PostgreSQL as `boolean`. A table binds `.bool` only to a column that is boolean on every
/// engine that has one (`SQLDialect.booleanType`), and `.integer` to the rest.
public enum SQLValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// Text; it must not hold a NUL byte, which PostgreSQL text cannot store.
    case text(String)
    /// A boolean.
    case bool(Bool)

    /// An optional text value, `null` when absent.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    /// An optional integer value, `null` when absent.
    public static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }

    /// An optional boolean, `null` when absent.
    public static func bool(_ value: Bool?) -> SQLValue { value.map { .bool($0) } ?? .null }

    /// A count or limit.
    public static func count(_ value: Int) -> SQLValue { .integer(Int64(value)) }

    /// A date as the ledger stores it: milliseconds since 1970, `null` when absent.
    public static func milliseconds(_ date: Date?) -> SQLValue { .integer(date?.ledgerMilliseconds) }
}
