/// What differs between SQL engines, for the statements the data layer writes once.
///
/// The ledger's SQL is the common ground of SQLite 3.35+ and PostgreSQL 12+: `INSERT ... ON
/// CONFLICT ... DO UPDATE` with `excluded`, `RETURNING`, row values, partial indexes, table
/// aliases in `INSERT ... AS`. Parameters are written `?` (numbered `?1` where one is used
/// twice), which `render` turns into the engine's form. Where SQLite needs a plan fixed, a
/// statement names the index (`INDEXED BY`), which an engine with a statistics-driven planner
/// drops. Everything else that differs is a property here, read by the table that needs it.
public struct SQLDialect: Sendable {
    /// The engine's name, as `StorageFailure.engine` gives it: `sqlite`, `postgresql`.
    public let engine: String
    /// How parameters are written: `?`/`?N` as given, or `$N`.
    public let placeholderStyle: PlaceholderStyle
    /// Whether `INDEXED BY <index>` stays in a statement (SQLite) or is dropped.
    public let keepsIndexHints: Bool
    /// A statement that orders the change feed, run once by a transaction before it appends
    /// its first player change and held until it ends; nil where writers commit one at a time
    /// (SQLite), so a sequence taken is always committed before the next is taken.
    public let changeFeedLockSQL: String?
    /// Whether one write transaction runs at a time (SQLite), so a value read inside a write
    /// cannot change before the write changes it; where writes run concurrently (PostgreSQL)
    /// a read-modify-write is one statement instead.
    public let serializesWrites: Bool
    /// How this engine writes the schema's tables (`createStatements(_:)`).
    public let schemaForms: SQLSchemaForms

    /// How an engine writes statement parameters.
    public enum PlaceholderStyle: Sendable {
        /// `?` and `?N`, as the ledger writes them (SQLite).
        case question
        /// `$N` (PostgreSQL).
        case dollar
    }

    /// A dialect with these properties.
    public init(
        engine: String, placeholderStyle: PlaceholderStyle, keepsIndexHints: Bool, changeFeedLockSQL: String?,
        serializesWrites: Bool, schemaForms: SQLSchemaForms
    ) {
        self.serializesWrites = serializesWrites
        self.engine = engine
        self.placeholderStyle = placeholderStyle
        self.keepsIndexHints = keepsIndexHints
        self.changeFeedLockSQL = changeFeedLockSQL
        self.schemaForms = schemaForms
    }

    /// SQLite: the ledger's SQL as written.
    public static let sqlite = SQLDialect(
        engine: "sqlite", placeholderStyle: .question, keepsIndexHints: true, changeFeedLockSQL: nil, serializesWrites: true,
        schemaForms: .sqlite)

    /// The feed lock's advisory key: "FLDGFEED".
    public static let postgresFeedLockKey: Int64 = 0x464C_4447_4645_4544

    /// PostgreSQL: `$N` parameters, no index hints, and the change feed ordered by a
    /// transaction-level advisory lock, since concurrent transactions take sequences.
    public static let postgresql = SQLDialect(
        engine: "postgresql", placeholderStyle: .dollar, keepsIndexHints: false,
        changeFeedLockSQL: "SELECT pg_advisory_xact_lock(\(postgresFeedLockKey))", serializesWrites: false,
        schemaForms: .postgresql)

    /// The statement in this engine's form: `?` becomes `$1`, `$2`, ... in order and `?N`
    /// becomes `$N` for `.dollar`; `INDEXED BY name` is dropped unless kept. Quoted text
    /// and identifiers are left as they are. A statement is rendered once and cached by its
    /// engine, so this favours clarity over speed.
    public func render(_ sql: String) -> String {
        if placeholderStyle == .question, keepsIndexHints { return sql }
        var rendered = ""
        rendered.reserveCapacity(sql.utf8.count + 16)
        var characters = Array(sql)
        if !keepsIndexHints { characters = Self.droppingIndexHints(characters) }
        var index = 0
        var nextNumber = 1
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            index += 1
            if let open = quote {
                rendered.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                rendered.append(character)
                continue
            }
            guard character == "?", placeholderStyle == .dollar else {
                rendered.append(character)
                continue
            }
            var digits = ""
            while index < characters.count, let digit = characters[index].wholeNumberValue, digit >= 0, digit <= 9 {
                digits.append(characters[index])
                index += 1
            }
            if digits.isEmpty {
                rendered += "$\(nextNumber)"
                nextNumber += 1
            } else {
                rendered += "$" + digits
            }
        }
        return rendered
    }

    /// The characters without any `INDEXED BY name` clause (and the space before it).
    private static func droppingIndexHints(_ characters: [Character]) -> [Character] {
        let marker = Array(" INDEXED BY ")
        var result: [Character] = []
        result.reserveCapacity(characters.count)
        var index = 0
        while index < characters.count {
            if characters[index] == " ", index + marker.count <= characters.count,
                Array(characters[index..<(index + marker.count)]) == marker
            {
                index += marker.count
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                    index += 1
                }
                continue
            }
            result.append(characters[index])
            index += 1
        }
        return result
    }
}
