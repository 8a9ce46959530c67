import CSQLite
import FulfillmentLedger

/// One batch of group-commit requests run on the writer connection: as few shared
/// transactions as possible, one savepoint per request, one commit each.
///
/// Owned by the committer's drain while it holds the connection's lock; never escapes it.
struct GroupCommitBatch {
    /// What happened to each request of the batch, by position.
    struct Outcomes {
        /// nil: committed. Otherwise the error the caller gets.
        var errors: [LedgerError?]
        /// One-statement requests (carried finish marks) that ran, but were rolled back because
        /// the request alone with them failed: nothing was wrong with them, so they are carried
        /// again rather than lost. Their `errors` entry stays nil.
        var carriedAgain: [Int] = []
        var transactionCount = 0
        var syncedTransactionCount = 0

        /// The outcome of a batch that did not run because the store closed its connection.
        static func closed(count: Int) -> Outcomes {
            let error = SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "the store closed before this write ran").ledgerError
            return Outcomes(errors: Array(repeating: error, count: count))
        }
    }

    /// A fixed name is enough: a request's savepoint is always the innermost one.
    private static let savepointName = "group_request"
    private static let savepointSQL = "SAVEPOINT \(savepointName)"
    private static let rollbackToSavepointSQL = "ROLLBACK TO \(savepointName)"
    private static let releaseSQL = "RELEASE \(savepointName)"

    let connection: SQLiteConnection
    let durableSynchronous: SQLiteLedgerStore.Synchronous

    /// Runs every request; returns each one's outcome.
    ///
    /// One request's failure rolls back to its savepoint and touches no other request.
    /// Some SQLite errors (I/O, disk full, out of memory) end the whole transaction: then
    /// the requests already run in it lose their changes and get that error too, and the
    /// requests not yet run go on in a new transaction.
    func run(_ batch: [GroupWriteRequest]) -> Outcomes {
        precondition(!connection.isInTransaction, "group commit started inside a transaction on \(connection.path)")
        var outcomes = Outcomes(errors: Array(repeating: nil, count: batch.count))
        var next = 0
        // Each pass runs one transaction and advances `next` at least once, so this ends.
        while next < batch.count {
            next = runTransaction(batch, from: next, outcomes: &outcomes)
        }
        return outcomes
    }

    /// Runs one shared transaction starting at request `start`; returns the first request
    /// it did not run.
    private func runTransaction(_ batch: [GroupWriteRequest], from start: Int, outcomes: inout Outcomes) -> Int {
        let durable = batch[start...].contains { $0.durability == .durable }
        // One-statement requests (carried finish marks) undo themselves when they fail, so
        // they need no savepoint, and they do not make the request they ride with need one:
        // when its body throws (a fault, a conflict to retry), the whole transaction rolls back
        // and the marks are carried again. A savepoint would copy every page the grant first
        // changes into the statement journal, on every fulfillment, for a rare failure.
        let isShared = batch[start...].lazy.filter { !$0.isOneStatement }.count > 1
        outcomes.transactionCount += 1
        do throws(SQLiteError) {
            // In WAL mode a NORMAL commit is not synced; the next FULL commit's sync of the
            // WAL makes it durable too.
            try connection.setSynchronous((durable ? durableSynchronous : .normal).rawValue)
            try connection.executeCached("BEGIN IMMEDIATE")
        } catch {
            for index in start..<batch.count { outcomes.errors[index] = error.ledgerError }
            return batch.count
        }
        let session = connection.ledgerWriter
        var ran: [Int] = []
        for index in start..<batch.count {
            let request = batch[index]
            let failure = run(request, session: session, inSavepoint: !request.isOneStatement && isShared)
            guard let failure else {
                ran.append(index)
                continue
            }
            outcomes.errors[index] = failure
            if !request.isOneStatement, !isShared, connection.isInTransaction {
                // The one request of this transaction failed: all of it rolls back, exactly as
                // `SQLiteLedgerStore.write` would, and the marks that ran before it ride again.
                connection.rollbackIfOpen()
                outcomes.carriedAgain += ran
                return index + 1
            }
            guard connection.isInTransaction else {
                // SQLite ended the transaction: what ran before is gone with it.
                for lost in ran { outcomes.errors[lost] = Self.lost(failure) }
                return index + 1
            }
        }
        guard connection.isInTransaction else { return batch.count }
        do throws(SQLiteError) {
            try connection.executeCached("COMMIT")
            if durable { outcomes.syncedTransactionCount += 1 }
        } catch {
            connection.rollbackIfOpen()
            for index in ran { outcomes.errors[index] = error.ledgerError }
        }
        return batch.count
    }

    /// Runs one request and returns its error, if any. A request sharing its transaction runs in
    /// a savepoint of its own, so a failure rolls back to it only. One that needs none runs
    /// directly: a one-statement request, which SQLite undoes by itself when it fails, or the one
    /// request of its transaction, which the caller rolls back whole when it fails.
    private func run(_ request: GroupWriteRequest, session: LedgerWriter, inSavepoint: Bool) -> LedgerError? {
        do throws(SQLiteError) {
            if inSavepoint { try connection.executeCached(Self.savepointSQL) }
        } catch {
            return error.ledgerError
        }
        do throws(LedgerError) {
            try request.perform(session)
        } catch {
            guard inSavepoint, connection.isInTransaction else { return error }
            do throws(SQLiteError) {
                try connection.executeCached(Self.rollbackToSavepointSQL)
                try connection.executeCached(Self.releaseSQL)
            } catch {
                // The savepoint cannot be undone on its own: give up the whole transaction.
                connection.rollbackIfOpen()
            }
            return error
        }
        do throws(SQLiteError) {
            if inSavepoint { try connection.executeCached(Self.releaseSQL) }
        } catch {
            connection.rollbackIfOpen()
            return error.ledgerError
        }
        return nil
    }

    /// The error of a request whose committed-looking work was rolled back with the transaction.
    private static func lost(_ cause: LedgerError) -> LedgerError {
        if case .storage(var failure) = cause {
            failure.message = "rolled back with its shared transaction: \(failure.message)"
            return .storage(failure)
        }
        return SQLiteError(extendedResultCode: SQLITE_ABORT, message: "rolled back with its shared transaction after another request failed: \(cause)").ledgerError
    }
}
