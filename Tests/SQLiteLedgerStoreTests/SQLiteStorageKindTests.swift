import CSQLite
import FulfillmentLedger
import SQLiteLedgerStore
import Testing

/// Each SQLite result code has one engine-neutral kind, and whether to retry follows from it.
@Suite struct SQLiteStorageKindTests {
    @Test(arguments: [
        (SQLITE_BUSY, StorageFailure.Kind.busy), (SQLITE_LOCKED, .busy), (SQLITE_CONSTRAINT, .constraint),
        (SQLITE_IOERR, .commitOutcomeUnknown), (SQLITE_CORRUPT, .corrupt), (SQLITE_NOTADB, .corrupt),
        (SQLITE_CANTOPEN, .configuration), (SQLITE_READONLY, .configuration), (SQLITE_INTERRUPT, .timeout),
        (SQLITE_FULL, .other), (SQLITE_ERROR, .other),
    ])
    func eachResultCodeHasItsKind(_ code: Int32, _ kind: StorageFailure.Kind) {
        // An extended code keeps its primary code in the low byte.
        let failure = SQLiteError(extendedResultCode: code | (1 << 8), message: "m").storageFailure
        #expect(failure.kind == kind)
        #expect(failure.isRetryable == kind.isRetryable && failure.outcomeUnknown == (kind == .commitOutcomeUnknown))
        #expect(failure.engine == "sqlite")
    }
}
