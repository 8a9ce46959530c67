import FulfillmentLedger
import Testing

@testable import PostgresLedgerStore

/// How errors are classified and what they become in the core. Needs no server.
@Suite struct PostgresErrorTests {
    private func server(_ state: String, broken: Bool = false) -> PostgresError {
        PostgresError(kind: .server, sqlState: state, message: "m", sql: "SELECT 1", connectionBroken: broken)
    }

    @Test func conflictsAreRetryable() {
        for state in ["40001", "40P01"] {
            let error = server(state)
            #expect(error.isRetryable)
            #expect(error.allowsTransactionRetry)
            #expect(!error.isConnectionFailure)
            #expect(!error.outcomeUnknown)
        }
        #expect(!server("40002").isRetryable)
        #expect(!server("42P01").isRetryable)
    }

    @Test func uniqueViolation() {
        #expect(server("23505").isUniqueViolation)
        #expect(!server("23505").isRetryable)
        #expect(!server("23503").isUniqueViolation)
    }

    @Test func connectionFailures() {
        for state in ["08000", "08003", "08006", "57P01", "57P02", "57P03"] {
            #expect(server(state).isConnectionFailure, "\(state)")
        }
        #expect(!server("57014").isConnectionFailure)  // query_canceled: the connection lives on
        #expect(server("XX000", broken: true).isConnectionFailure)
        // Sent: the statement may have run, so only a whole transaction may run again.
        let sent = PostgresError(kind: .connectionLost, message: "m", statementSent: true)
        #expect(!sent.isRetryable)
        #expect(sent.allowsTransactionRetry)
        let unsent = PostgresError(kind: .connectionLost, message: "m", statementSent: false)
        #expect(unsent.isRetryable)
    }

    @Test func lostCommitIsOutcomeUnknownAndNeverRetried() {
        let error = PostgresError(kind: .commitOutcomeUnknown, sqlState: "57P01", message: "m", sql: "COMMIT")
        #expect(error.outcomeUnknown)
        #expect(error.isConnectionFailure)
        #expect(!error.isRetryable)
        #expect(!error.allowsTransactionRetry)
        #expect(error.ledgerError.description.contains("may or may not have committed"))
    }

    @Test func ledgerErrorKeepsTheSQLState() {
        guard case .storage(let failure) = server("40001").ledgerError else {
            Issue.record("not a storage error")
            return
        }
        #expect(failure.engine == "postgresql")
        #expect(failure.message.hasPrefix("PostgreSQL SQLSTATE 40001 (serialization_failure)"))
        #expect(failure.sql == "SELECT 1")
        #expect(server("40001").ledgerError.code == 1007)
        let parameter = PostgresError(kind: .invalidParameter, message: "NUL", statementSent: false)
        #expect(parameter.ledgerError.code == LedgerError.invalidArgument("").code)
        let configuration = PostgresError(kind: .invalidConfiguration, message: "limits", statementSent: false)
        #expect(configuration.ledgerError.code == LedgerError.configuration("").code)
    }
}

/// Each PostgreSQL failure has one engine-neutral kind, and whether to retry follows from it.
@Suite struct PostgresStorageKindTests {
    @Test(arguments: [
        (PostgresError(kind: .server, sqlState: "40001", message: "m"), StorageFailure.Kind.conflict),
        (PostgresError(kind: .server, sqlState: "40P01", message: "m"), .conflict),
        (PostgresError(kind: .server, sqlState: "57014", message: "m"), .timeout),
        (PostgresError(kind: .server, sqlState: "55P03", message: "m"), .timeout),
        (PostgresError(kind: .server, sqlState: "23505", message: "m"), .constraint),
        (PostgresError(kind: .server, sqlState: "23514", message: "m"), .constraint),
        (PostgresError(kind: .server, sqlState: "XX001", message: "m"), .corrupt),
        (PostgresError(kind: .server, sqlState: "42601", message: "m"), .other),
        (PostgresError(kind: .server, sqlState: "57P01", message: "m"), .connectionLostBeforeCommit),
        (PostgresError(kind: .connectFailed, message: "m", statementSent: false), .connectionLostBeforeCommit),
        (PostgresError(kind: .connectionLost, message: "m", statementSent: true), .connectionLostBeforeCommit),
        (PostgresError(kind: .commitOutcomeUnknown, message: "m"), .commitOutcomeUnknown),
        (PostgresError(kind: .connectRejected, message: "m", statementSent: false, connectionBroken: true), .configuration),
        (PostgresError(kind: .poolBusy, message: "m", statementSent: false), .busy),
        (PostgresError(kind: .acquireTimeout, message: "m", statementSent: false), .busy),
        (PostgresError(kind: .cancelled, message: "m", statementSent: false), .other),
    ])
    func eachFailureHasItsKind(_ error: PostgresError, _ kind: StorageFailure.Kind) {
        #expect(error.storageKind == kind)
        guard case .storage(let failure) = error.ledgerError else {
            Issue.record("\(error) is not a storage failure")
            return
        }
        #expect(failure.kind == kind && failure.isRetryable == kind.isRetryable)
        #expect(failure.outcomeUnknown == (kind == .commitOutcomeUnknown))
    }
}
