import Foundation
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// The statement cache finds a statement by its SQL text wherever that text is stored, never
/// confuses two texts, and stays bounded when a text is built anew at every call.
@Suite struct StatementCacheTests {
    static let constantSQL = "SELECT amount FROM balances WHERE player_id = ? AND currency_id = ?"

    /// A connection to a new file, and the folder that holds it for as long as the test keeps it.
    struct Scratch {
        let directory: ScratchDirectory
        let connection: SQLiteConnection
    }

    static func scratch() throws -> Scratch {
        let directory = try ScratchDirectory()
        let connection = try SQLiteConnection(path: directory.path("cache.sqlite"), mode: .readWriteCreate)
        try connection.execute("CREATE TABLE balances (player_id TEXT, currency_id TEXT, amount INTEGER)")
        return Scratch(directory: directory, connection: connection)
    }

    @Test func oneTextIsOneStatementWhereverItIsStored() throws {
        let scratch = try Self.scratch()
        let first = try scratch.connection.statement(Self.constantSQL)
        // The same text in storage of its own: built at run time, not the literal.
        let copy = String(decoding: Array(Self.constantSQL.utf8), as: UTF8.self)
        #expect(try scratch.connection.statement(copy) === first)
        #expect(try scratch.connection.statement(Self.constantSQL) === first)
        #expect(try scratch.connection.statement(copy) === first)
        let other = try scratch.connection.statement(Self.constantSQL + " LIMIT 1")
        #expect(other !== first)
        #expect(other.sql == Self.constantSQL + " LIMIT 1")
        // Short texts, which Swift may keep inline, are found by their text.
        #expect(try scratch.connection.statement("SELECT 1") === (try scratch.connection.statement(String("SELECT 1".reversed().reversed()))))
    }

    @Test func aTextBuiltAtEveryCallIsStillFoundAndTheCacheStaysBounded() throws {
        let scratch = try Self.scratch()
        var statements: Set<ObjectIdentifier> = []
        for limit in 0..<(3 * SQLiteConnection.statementCacheCountMax) {
            // A new string each time, over a few distinct texts.
            let sql = "SELECT amount FROM balances WHERE player_id = ? LIMIT \(limit % 3 + 1)"
            let statement = try scratch.connection.statement(sql)
            #expect(statement.sql == sql)
            statements.insert(ObjectIdentifier(statement))
        }
        #expect(statements.count == 3, "one statement per distinct text")
    }

    @Test func aCachedStatementStillRunsAfterTheCacheWasCleared() throws {
        let scratch = try Self.scratch()
        for index in 0...(SQLiteConnection.statementCacheCountMax + 1) {
            try scratch.connection.statement("INSERT INTO balances VALUES ('p\(index)', 'gems', \(index))").run()
        }
        let total = try scratch.connection.statement("SELECT sum(amount) FROM balances").queryOne { $0.int64(0) }
        let count = Int64(SQLiteConnection.statementCacheCountMax + 2)
        #expect(total == count * (count - 1) / 2)
    }
}
