/// A table of the ledger's schema, described once for every SQL engine; each engine's
/// `SQLDialect` renders it (`createStatements(_:)`). A table file in `Storage/Tables/` holds its
/// table's description beside the statements that read and write it.
public struct SQLTable: Sendable {
    /// The table's name.
    public let name: String
    /// The columns, in order.
    public let columns: [SQLColumn]
    /// The primary key's columns; empty when a `.sequence` column is the key.
    public let primaryKey: [String]
    /// References to other tables, each checked when the transaction commits (deferred), so a
    /// row may be written before the row it names within one transaction.
    public let foreignKeys: [SQLForeignKey]
    /// The table's indexes.
    public let indexes: [SQLIndex]
    /// Set to the message an UPDATE or DELETE fails with, for a table only ever appended to.
    public let appendOnlyMessage: String?

    /// A table with these parts.
    public init(
        _ name: String, columns: [SQLColumn], primaryKey: [String] = [], foreignKeys: [SQLForeignKey] = [],
        indexes: [SQLIndex] = [], appendOnlyMessage: String? = nil
    ) {
        precondition(
            primaryKey.isEmpty == columns.contains { $0.kind.isSequence },
            "\(name): a table has a sequence column or a primary key, not both")
        precondition(primaryKey.allSatisfy { key in columns.contains { $0.name == key } }, "\(name): unknown key column")
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.appendOnlyMessage = appendOnlyMessage
    }
}

/// A column of an `SQLTable`.
public struct SQLColumn: Sendable {
    /// What a column holds, which each dialect maps to its own type.
    public enum Kind: Sendable, Equatable {
        /// An identifier or code, compared byte by byte on every engine (PostgreSQL `COLLATE "C"`).
        case key
        /// Free text, never compared for order.
        case text
        /// A 64-bit integer.
        case integer
        /// A boolean (SQLite: the integer 0 or 1).
        case boolean
        /// The table's key, a 64-bit integer the engine assigns on insert, only growing.
        /// `neverReused` keeps a number even after its row is deleted (SQLite `AUTOINCREMENT`);
        /// without it SQLite may reuse the largest one after a delete.
        case sequence(neverReused: Bool)

        /// Whether the engine assigns the column's values (`.sequence`).
        public var isSequence: Bool { if case .sequence = self { true } else { false } }
    }

    /// The column's name.
    public let name: String
    /// What it holds.
    public let kind: Kind
    /// Whether it may be NULL.
    public let isNullable: Bool
    /// A check every row meets, in SQL both engines read (`count >= 0`).
    public let check: String?
    /// The value an insert that names no value stores, as SQL (`0`).
    public let defaultSQL: String?

    /// A column; NOT NULL unless `isNullable`.
    public init(_ name: String, _ kind: Kind, isNullable: Bool = false, check: String? = nil, defaultSQL: String? = nil) {
        self.name = name
        self.kind = kind
        self.isNullable = isNullable
        self.check = check
        self.defaultSQL = defaultSQL
    }
}

/// A reference from some columns of a table to the key of another, checked at commit.
public struct SQLForeignKey: Sendable {
    /// The referring columns.
    public let columns: [String]
    /// The referenced table.
    public let table: String
    /// The referenced columns, its key.
    public let referencedColumns: [String]

    /// A deferred reference from `columns` to `table (referencedColumns)`.
    public init(_ columns: [String], references table: String, _ referencedColumns: [String]) {
        self.columns = columns
        self.table = table
        self.referencedColumns = referencedColumns
    }
}

/// An index of an `SQLTable`.
public struct SQLIndex: Sendable {
    /// The index's name, which SQLite's `INDEXED BY` hints name.
    public let name: String
    /// The indexed columns, in order.
    public let columns: [String]
    /// A condition that makes it a partial index holding only the rows that meet it.
    public let predicate: String?
    /// The engines that create it (`SQLDialect.engine`); nil for all. An index one engine's
    /// planner needs and another's does not.
    public let engines: Set<String>?

    /// An index on `columns`, partial when `predicate` is given.
    public init(_ name: String, on columns: [String], where predicate: String? = nil, engines: Set<String>? = nil) {
        self.name = name
        self.columns = columns
        self.predicate = predicate
        self.engines = engines
    }
}
