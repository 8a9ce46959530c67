import FulfillmentLedger
import PostgresLedgerStore
import SQLiteLedgerStore

/// Where a command's ledger lives: `--db`, a SQLite file's path or a `postgresql://` URL, else
/// the `LEDGER_DATABASE_URL` environment variable, so an operator's shell can name the fleet's
/// database once and keep its password out of the command line and the shell's history.
package enum LedgerDatabase: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite ledger file.
    case sqlite(path: String)
    /// A PostgreSQL database (a `postgresql://` or `postgres://` URI; TLS settings pass through).
    case postgres(connectionString: String)

    /// The environment variable read when `--db` is not given.
    package static let environmentVariable = "LEDGER_DATABASE_URL"

    /// The group of `--db`, which every command that reads or writes a ledger takes.
    static let group = OptionGroup(
        title: "Ledger database",
        summary: "`--db DB` names the ledger: a SQLite file's path, or a PostgreSQL database as a `postgresql://` URL "
            + "(TLS settings pass through). Without `--db`, the `\(environmentVariable)` environment variable names it.",
        isLinked: false)

    /// `--db DB`.
    package static let option = CommandOption(
        "db", "DB", required: true, default: "$\(environmentVariable)", help: "the ledger: a SQLite file, or a postgresql:// URL",
        group: group)

    /// The database `text` names: a PostgreSQL URI by its scheme, anything else a file path.
    package init(_ text: String) {
        let lowered = text.prefix(16).lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            self = .postgres(connectionString: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The database from `--db`, else from `LEDGER_DATABASE_URL`; neither is a usage error.
    package init(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) {
        if let given = arguments.value(Self.option) {
            // An empty path goes to SQLite, which refuses it as a file it would not keep.
            self.init(given)
        } else if let named = io.environmentValue(Self.environmentVariable), !named.isEmpty {
            self.init(named)
        } else {
            throw Arguments.UsageError(message: "--db is required (or set \(Self.environmentVariable))")
        }
    }

    /// The database as reports and errors name it: the path, or the URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let connectionString): PostgresConnectionString(connectionString).description
        }
    }

    /// Opens the store, migrating an older schema. Without `createIfMissing`, a missing file or
    /// an empty database is refused with `.ledgerMissing`, and nothing is created. The caller
    /// closes it (`LedgerSetup.withStore` does).
    package func open(createIfMissing: Bool) async throws(LedgerError) -> any LedgerStore {
        switch self {
        case .sqlite(let path):
            var options = SQLiteLedgerStore.Options()
            options.createIfMissing = createIfMissing
            return try await SQLiteLedgerStore.open(path: path, options: options)
        case .postgres(let connectionString):
            var options = PostgresLedgerStore.Options(connectionString: connectionString)
            options.createIfMissing = createIfMissing
            return try await PostgresLedgerStore(options: options)
        }
    }

    /// The schema version this build writes on this engine.
    package var schemaVersionSupported: Int {
        switch self {
        case .sqlite: SQLiteLedgerStore.schemaVersion
        case .postgres: PostgresLedgerStore.schemaVersion
        }
    }
}
