import FulfillmentLedger
import LedgerSQL
import Foundation

/// A read-only health report of a PostgreSQL ledger, for `ledger doctor`: the schema, the
/// pending finishes with their age, and the server settings that decide what `.durable` means.
public struct PostgresHealthReport: Hashable, Sendable, Codable {
    /// The database, as the connection string without its password.
    public var location: String
    /// Its schema version.
    public var schemaVersion: Int
    /// The newest schema version this build knows.
    public var schemaVersionSupported: Int
    /// The server's settings that bear on durability and isolation.
    public var server: PostgresServerSettings
    /// Ledger records held.
    public var transactionCount: Int64
    /// One page of pending finishes, oldest first: at most the limit asked for, after the cursor.
    public var pendingFinishes: [PendingFinishAge]
    /// How many finishes are pending in all, listed or not.
    public var pendingFinishCount: Int64
    /// Whether more pending finishes follow this page.
    public var pendingFinishesTruncated: Bool
    /// Where the next page starts (`ledger doctor --after`), when more follow.
    public var nextAfter: PendingFinishCursor?
    /// The age in seconds beyond which a pending finish is overdue.
    public var finishWarningAgeSeconds: Int64
    /// How many pending finishes are overdue in all, listed or not.
    public var overdueFinishCount: Int64
    /// Google Play's refunds of purchases not acknowledged in time, in the last 30 days.
    public var unacknowledgedPlayVoids: UnacknowledgedVoidCount
    /// What is wrong: an old schema, or a server setting that weakens a durable commit.
    public var problems: [String]
    /// Whether nothing is wrong.
    public var healthy: Bool
}

/// Inspects a PostgreSQL ledger without changing it: one read-only transaction, no migration.
public enum PostgresLedgerDoctor {
    /// Most pending finishes listed in one report; page through more with `after`.
    public static let pendingFinishCountMax = LedgerDoctorContents.pendingFinishCountMax

    /// Connects to the database at `connectionString` and reports on it. Throws `.ledgerMissing`
    /// for a database without a ledger, `.notALedger` or `.newerSchema` for one this build must
    /// not read, `.storage` when the server cannot be reached, `.invalidArgument` for a limit out
    /// of range.
    public static func examine(
        connectionString: String, now: Date = Date(), finishWarningAgeSeconds: Int64 = 24 * 60 * 60,
        pendingFinishLimit: Int = pendingFinishCountMax, after cursor: PendingFinishCursor? = nil
    ) async throws(LedgerError) -> PostgresHealthReport {
        try LedgerDoctorContents.checkLimit(pendingFinishLimit)
        let configuration = PostgresPoolConfiguration(
            connectionString: PostgresConnectionString(connectionString), connectionCountMax: 1)
        let pool = try PostgresConnectionPool(ledger: configuration)
        let location = configuration.connectionString.description
        let contents: (schemaVersion: Int, rows: LedgerDoctorContents)
        let settings: PostgresServerSettings
        do throws(TransactionFailure) {
            contents = try await pool.transaction(isolation: .repeatableRead, readOnly: true) {
                (connection) throws(TransactionFailure) -> (schemaVersion: Int, rows: LedgerDoctorContents) in
                do throws(LedgerError) {
                    let session = PostgresLedgerSession(connection: connection, location: location)
                    guard let version = try PostgresLedgerSchema.versionFound(in: session) else {
                        throw LedgerError.ledgerMissing(location: location)
                    }
                    return (
                        version,
                        try LedgerDoctorContents(
                            session.ledger, now: now, finishWarningAgeSeconds: finishWarningAgeSeconds, limit: pendingFinishLimit,
                            after: cursor)
                    )
                } catch {
                    throw .ledger(error)
                }
            }
            do throws(PostgresError) {
                settings = try await pool.serverSettings()
            } catch {
                throw .postgres(error)
            }
        } catch {
            await pool.close()
            throw error.ledgerError
        }
        await pool.close()
        let rows = contents.rows
        let problems = Self.problems(schemaVersion: contents.schemaVersion, settings: settings)
        return PostgresHealthReport(
            location: location, schemaVersion: contents.schemaVersion,
            schemaVersionSupported: PostgresLedgerSchema.versionSupported, server: settings, transactionCount: rows.transactionCount,
            pendingFinishes: rows.pendingFinishes, pendingFinishCount: rows.pendingFinishCount,
            pendingFinishesTruncated: rows.pendingFinishesTruncated, nextAfter: rows.nextAfter,
            finishWarningAgeSeconds: finishWarningAgeSeconds, overdueFinishCount: rows.overdueFinishCount,
            unacknowledgedPlayVoids: rows.unacknowledgedPlayVoids, problems: problems, healthy: problems.isEmpty)
    }

    /// What the report counts as wrong. `synchronous_commit = off` acknowledges a commit before
    /// its WAL is flushed, so a `.durable` write could be lost; `fsync = off` risks the cluster.
    static func problems(schemaVersion: Int, settings: PostgresServerSettings) -> [String] {
        var problems: [String] = []
        if schemaVersion != PostgresLedgerSchema.versionSupported {
            problems.append(
                "schema version \(schemaVersion) is older than \(PostgresLedgerSchema.versionSupported); "
                    + "the first store to open the database migrates it")
        }
        if settings.synchronousCommit == "off" {
            problems.append("synchronous_commit is off: a server crash can lose commits the ledger reported durable")
        }
        if settings.fsync != "on" {
            problems.append("fsync is \(settings.fsync): a server crash can corrupt the database")
        }
        return problems
    }
}
