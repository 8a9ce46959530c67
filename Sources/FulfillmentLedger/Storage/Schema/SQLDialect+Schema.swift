/// How a dialect writes the schema: the `CREATE` statements of a described table.
public struct SQLSchemaForms: Sendable {
    /// The column type of a `.key` column.
    public let keyType: String
    /// The column type of a `.text` column.
    public let textType: String
    /// The column type of an `.integer` column.
    public let integerType: String
    /// The column type of a `.boolean` column.
    public let booleanType: String
    /// Whether a boolean column also checks it holds 0 or 1 (an engine without a boolean type).
    public let checksBooleans: Bool
    /// A `.sequence(neverReused: false)` column after its name.
    public let sequenceColumn: String
    /// A `.sequence(neverReused: true)` column after its name.
    public let neverReusedSequenceColumn: String
    /// What follows the closing parenthesis of a table keyed by its primary key (SQLite's
    /// `WITHOUT ROWID`, which stores the rows in the key's order).
    public let keyedTableSuffix: String
    /// The statements that make a table append-only, with `{table}` and `{message}` to fill in,
    /// separated by semicolons, with none after the last (as every rendered statement).
    public let appendOnlyTemplate: String
    /// What an INSERT that gives a sequence column its value says after its column list
    /// (PostgreSQL's identity columns refuse one otherwise); nil where none is needed. A copy
    /// of a ledger into this engine keeps every row's number.
    public let identityInsertClause: String?
    /// The statement that sets the sequence of `{column}` of `{table}` past its largest value,
    /// after a copy gave the rows their numbers; nil where the engine takes the next number
    /// from the rows themselves (SQLite's rowid).
    public let sequenceRestartTemplate: String?
    /// The query that lists a table's columns in order, the table's name its one parameter:
    /// what a copy checks against the other engine's; nil to take them from the schema's description.
    public let columnNamesSQL: String?

    /// Forms with these parts.
    public init(
        keyType: String, textType: String, integerType: String, booleanType: String, checksBooleans: Bool,
        sequenceColumn: String, neverReusedSequenceColumn: String, keyedTableSuffix: String, appendOnlyTemplate: String,
        identityInsertClause: String? = nil, sequenceRestartTemplate: String? = nil, columnNamesSQL: String? = nil
    ) {
        self.columnNamesSQL = columnNamesSQL
        self.identityInsertClause = identityInsertClause
        self.sequenceRestartTemplate = sequenceRestartTemplate
        self.keyType = keyType
        self.textType = textType
        self.integerType = integerType
        self.booleanType = booleanType
        self.checksBooleans = checksBooleans
        self.sequenceColumn = sequenceColumn
        self.neverReusedSequenceColumn = neverReusedSequenceColumn
        self.keyedTableSuffix = keyedTableSuffix
        self.appendOnlyTemplate = appendOnlyTemplate
    }

    /// SQLite's: type affinities, rowid sequences, `WITHOUT ROWID`, triggers that abort.
    public static let sqlite = SQLSchemaForms(
        keyType: "TEXT", textType: "TEXT", integerType: "INTEGER", booleanType: "INTEGER", checksBooleans: true,
        sequenceColumn: "INTEGER PRIMARY KEY", neverReusedSequenceColumn: "INTEGER PRIMARY KEY AUTOINCREMENT",
        keyedTableSuffix: " WITHOUT ROWID",
        appendOnlyTemplate: """
            CREATE TRIGGER {table}_append_only_update BEFORE UPDATE ON {table}
                BEGIN SELECT RAISE(ABORT, '{message}'); END;
            CREATE TRIGGER {table}_append_only_delete BEFORE DELETE ON {table}
                BEGIN SELECT RAISE(ABORT, '{message}'); END
            """,
        columnNamesSQL: "SELECT name FROM pragma_table_info(?) ORDER BY cid")

    /// PostgreSQL's: `COLLATE "C"` keys, `bigint`, `boolean`, identity columns, a trigger function.
    public static let postgresql = SQLSchemaForms(
        keyType: "text COLLATE \"C\"", textType: "text", integerType: "bigint", booleanType: "boolean", checksBooleans: false,
        sequenceColumn: "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        neverReusedSequenceColumn: "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY", keyedTableSuffix: "",
        appendOnlyTemplate: """
            CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION '{message}'; END $$;
            CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
                FOR EACH ROW EXECUTE FUNCTION {table}_append_only()
            """,
        identityInsertClause: "OVERRIDING SYSTEM VALUE",
        sequenceRestartTemplate:
            "SELECT setval(pg_get_serial_sequence('{table}', '{column}'), coalesce(max({column}), 0) + 1, false) FROM {table}",
        columnNamesSQL: """
            SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
            ORDER BY ordinal_position
            """)
}

extension SQLDialect {
    /// Statements as one script an engine runs in a single call: each ends in one semicolon.
    public static func script(_ statements: [String]) -> String {
        statements.map { statement in
            var text = Substring(statement)
            while let last = text.last, last == ";" || last.isWhitespace { text.removeLast() }
            return text + ";"
        }.joined(separator: "\n")
    }

    /// The statements that create `table` with its indexes and, for an append-only table, what
    /// refuses UPDATE and DELETE; one statement per element.
    public func createStatements(_ table: SQLTable) -> [String] {
        let forms = schemaForms
        var lines = table.columns.map { column in "    " + columnDefinition(column, isPrimaryKey: table.primaryKey == [column.name]) }
        if table.primaryKey.count > 1 { lines.append("    PRIMARY KEY (\(table.primaryKey.joined(separator: ", ")))") }
        for key in table.foreignKeys {
            lines.append(
                "    FOREIGN KEY (\(key.columns.joined(separator: ", ")))\n"
                    + "        REFERENCES \(key.table) (\(key.referencedColumns.joined(separator: ", "))) DEFERRABLE INITIALLY DEFERRED")
        }
        let suffix = table.primaryKey.isEmpty ? "" : forms.keyedTableSuffix
        var statements = ["CREATE TABLE \(table.name) (\n" + lines.joined(separator: ",\n") + "\n)\(suffix)"]
        statements += table.indexes.compactMap { createIndexStatement($0, on: table.name) }
        if let message = table.appendOnlyMessage {
            statements.append(
                forms.appendOnlyTemplate.replacingOccurrences(of: "{table}", with: table.name)
                    .replacingOccurrences(of: "{message}", with: message))
        }
        return statements
    }

    /// The statement that creates `index` on `table`, nil when this engine does not create it.
    func createIndexStatement(_ index: SQLIndex, on table: String) -> String? {
        guard index.engines?.contains(engine) ?? true else { return nil }
        return "CREATE INDEX \(index.name) ON \(table) (\(index.columns.joined(separator: ", ")))"
            + (index.predicate.map { " WHERE \($0)" } ?? "")
    }

    /// One column's definition inside `CREATE TABLE` or `ADD COLUMN`.
    func columnDefinition(_ column: SQLColumn, isPrimaryKey: Bool) -> String {
        let forms = schemaForms
        var parts = [column.name]
        var checks = column.check.map { [$0] } ?? []
        switch column.kind {
        case .sequence(let neverReused):
            parts.append(neverReused ? forms.neverReusedSequenceColumn : forms.sequenceColumn)
            return parts.joined(separator: " ")
        case .key: parts.append(forms.keyType)
        case .text: parts.append(forms.textType)
        case .integer: parts.append(forms.integerType)
        case .boolean:
            parts.append(forms.booleanType)
            if forms.checksBooleans { checks.append("\(column.name) IN (0, 1)") }
        }
        if isPrimaryKey { parts.append("PRIMARY KEY") }
        if !column.isNullable { parts.append("NOT NULL") }
        if let defaultSQL = column.defaultSQL { parts.append("DEFAULT \(defaultSQL)") }
        parts += checks.map { "CHECK (\($0))" }
        return parts.joined(separator: " ")
    }
}
