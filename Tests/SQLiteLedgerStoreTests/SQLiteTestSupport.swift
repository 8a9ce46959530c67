import CSQLite
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// A raw sqlite3 connection, separate from any store, for crafting and inspecting files.
final class RawDatabase {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    let handle: OpaquePointer

    init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw Failure(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements; throws with SQLite's extended code and message.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        let text = message.map { String(cString: $0) } ?? ""
        sqlite3_free(message)
        guard code == SQLITE_OK else { throw Failure(code: sqlite3_extended_errcode(handle), message: text) }
    }

    /// The first column of the first row of `sql`.
    func integer(_ sql: String) throws -> Int64 {
        try firstRow(sql) { sqlite3_column_int64($0, 0) } ?? 0
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        try firstRow(sql) { statement in sqlite3_column_text(statement, 0).map { String(cString: $0) } } ?? nil
    }

    private func firstRow<T>(_ sql: String, _ read: (OpaquePointer) -> T) throws -> T? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return read(statement)
        case SQLITE_DONE: return nil
        default:
            throw Failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
    }
}

/// Builders of ledger rows for store tests.
enum Rows {
    static let date = Date(timeIntervalSince1970: 1_780_000_000)

    static func key(_ transactionID: String) -> TransactionKey {
        TransactionKey(store: .test, transactionID: transactionID)
    }

    /// A record still pending its finish, fulfilled at `fulfilledAt`.
    static func record(
        _ transactionID: String, player: String = "p1", productID: String = "gems_small", fulfilledAt: Date = date
    ) -> TransactionRecord {
        TransactionRecord(
            key: key(transactionID), playerID: player, productID: productID, storeProductID: "test.\(productID)",
            productKind: .consumable, quantity: 1, environment: .sandbox, purchaseDate: date, fulfilledAt: fulfilledAt,
            catalogVersion: "catalog-hash", grants: [GrantLine(kind: .currency, id: "gems", quantity: 100)],
            finishedAt: nil)
    }

    static func event(_ player: String = "p1", _ detail: String = "test event") -> LedgerEvent {
        LedgerEvent(kind: .purchaseGranted, playerID: player, transaction: nil, at: date, detail: detail)
    }

    static func entitlement(_ id: String, source transactionID: String) -> EntitlementRecord {
        EntitlementRecord(entitlementID: id, grantedAt: date, source: key(transactionID))
    }
}

/// The ways a file can be refused, with a recipe that writes it.
enum RefusedFile: String, CaseIterable, CustomTestStringConvertible {
    case randomBytes
    case shortText
    case foreignApplication
    case foreignApplicationWAL
    case zeroApplicationIDWithTables
    case newerLedgerSchema

    static let foreignApplicationID: Int32 = 0x4142_4344
    static let newerVersion = 99

    var testDescription: String { rawValue }

    /// Writes the file at `path`, leaving no side files behind.
    func write(to path: String) throws {
        switch self {
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        case .shortText:
            try Data("player notes: remember to buy gems\n".utf8).write(to: URL(fileURLWithPath: path))
        case .foreignApplication:
            try craft(path, applicationID: Self.foreignApplicationID, userVersion: 3, wal: false)
        case .foreignApplicationWAL:
            try craft(path, applicationID: Self.foreignApplicationID, userVersion: 3, wal: true)
        case .zeroApplicationIDWithTables:
            try craft(path, applicationID: 0, userVersion: 0, wal: false)
        case .newerLedgerSchema:
            try craft(path, applicationID: LedgerSchema.applicationID, userVersion: Self.newerVersion, wal: false)
        }
    }

    /// Whether `error` is the typed error opening this file must raise.
    func matches(_ error: LedgerError, path: String) -> Bool {
        switch (self, error) {
        case (.randomBytes, .notALedger(let found, _)), (.shortText, .notALedger(let found, _)):
            return found == path
        case (.foreignApplication, .foreignDatabase(let found, let id)),
            (.foreignApplicationWAL, .foreignDatabase(let found, let id)):
            return found == path && id == Self.foreignApplicationID
        case (.zeroApplicationIDWithTables, .foreignDatabase(let found, let id)):
            return found == path && id == 0
        case (.newerLedgerSchema, .newerSchema(let found, let version, let supported)):
            return found == path && version == Self.newerVersion && supported == LedgerSchema.versionSupported
        default:
            return false
        }
    }

    private func craft(_ path: String, applicationID: Int32, userVersion: Int, wal: Bool) throws {
        let database = try RawDatabase(path: path)
        if wal { try database.execute("PRAGMA journal_mode = WAL") }
        try database.execute(
            """
            PRAGMA application_id = \(applicationID);
            PRAGMA user_version = \(userVersion);
            CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO players VALUES ('p1', 'Ada'), ('p2', 'Grace');
            """)
    }
}

/// The side files SQLite may create next to a database.
let sideFileSuffixes = ["-wal", "-shm", "-journal"]

/// Which of `path`'s side files exist.
func existingSideFiles(of path: String) -> [String] {
    sideFileSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) }
}

/// Whether `path` has no rollback journal and no WAL frames next to it. A read-only connection to a
/// WAL-mode database leaves an empty `-wal` and a `-shm` index behind, which this tolerates.
func noJournalDataBeside(_ path: String) throws -> Bool {
    if FileManager.default.fileExists(atPath: path + "-journal") { return false }
    guard FileManager.default.fileExists(atPath: path + "-wal") else { return true }
    return try contents(path + "-wal").isEmpty
}

/// Reads a file's bytes.
func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

/// Reads a per-connection pragma on the store's own connection, or nil if the session is not SQLite's.
func connectionPragma(_ pragma: String, of store: SQLiteLedgerStore) async throws -> Int64? {
    // The writing connection: its settings decide durability and constraints.
    try await store.write { reader throws(LedgerError) -> Int64? in
        guard let session = (reader.engine as? SQLiteLedgerSession) else { return nil }
        return try session.sql { () throws(SQLiteError) in try session.connection.integer("PRAGMA \(pragma)") }
    }
}

/// Every table the ledger schema creates.
let ledgerTables = [
    "balances", "economy_operations", "entitlements", "events", "inventory", "ledger_transactions",
    "purchase_counts",
]

/// Row counts of every ledger table, read on the store's own connection.
func tableRowCounts(of store: SQLiteLedgerStore) async throws -> [String: Int64] {
    try await store.read { reader throws(LedgerError) -> [String: Int64] in
        guard let session = (reader.engine as? SQLiteLedgerSession) else { return [:] }
        var counts: [String: Int64] = [:]
        for table in ledgerTables {
            counts[table] = try session.sql { () throws(SQLiteError) in
                try session.connection.integer("SELECT count(*) FROM \(table)")
            }
        }
        return counts
    }
}

/// Row counts of an empty ledger.
let emptyTableRowCounts = Dictionary(uniqueKeysWithValues: ledgerTables.map { ($0, Int64(0)) })

/// What the store holds for one player.
struct PlayerRows: Equatable, Sendable {
    var balances: [String: Int64]
    var inventory: [String: Int64]
    var entitlements: [String]
    var history: [String]
    var events: [String]
    var lifetimePurchases: Int

    static let empty = PlayerRows(
        balances: [:], inventory: [:], entitlements: [], history: [], events: [], lifetimePurchases: 0)
}

/// Reads what the store holds for `player`; purchase counts are those of `gems_small` in `lifetime`.
func playerRows(_ player: String, in store: SQLiteLedgerStore) async throws -> PlayerRows {
    try await store.read { reader throws(LedgerError) in
        PlayerRows(
            balances: try reader.balances(playerID: player),
            inventory: try reader.inventory(playerID: player),
            entitlements: try reader.entitlements(playerID: player).map(\.entitlementID),
            history: try reader.transactions(playerID: player, limit: 100).map(\.key.transactionID),
            events: try reader.events(playerID: player, limit: 100).map(\.detail),
            lifetimePurchases: try reader.purchaseCount(playerID: player, productID: "gems_small", period: "lifetime"))
    }
}
