import FulfillmentLedger

/// `ledger recover`: retries pending finishes.
enum RecoverCommand {
    static let command = Command(
        words: ["recover"],
        summary: "retry every pending platform finish",
        help: """
            usage: ledger recover --db FILE --catalog FILE

            Retries every pending finish in the outbox (through the test store's finish
            port) and prints a JSON report. The database must exist.

            exit codes: 0 everything recovered, 1 some finish still failing or
              infrastructure error, 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        valueOptions: ["db", "catalog"],
        run: { arguments, io in
            let database: String
            let catalogPath: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try arguments.required("db")
                catalogPath = try arguments.required("catalog")
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "recover")
            }
            do throws(LedgerError) {
                let ledger = try LedgerSetup.ledger(database: database, catalogPath: catalogPath, createIfMissing: false)
                let report = try await ledger.recover()
                io.printJSON(Output(report))
                return report.isClean ? .ok : .failure
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "recover", catalogPath: catalogPath)
            }
        })

    struct Output: Encodable {
        var finished: [String]
        var stillPending: [String: String]
        var resubmitted: [String: String]
        var errors: [String: String]
        var clean: Bool

        init(_ report: RecoveryReport) {
            finished = report.finishesSucceeded.map(\.description).sorted()
            stillPending = Dictionary(uniqueKeysWithValues: report.finishesFailed.map { ($0.key.description, $0.value) })
            resubmitted = Dictionary(uniqueKeysWithValues: report.resubmitted.map { ($0.key.description, $0.value.name) })
            var errors = Dictionary(
                uniqueKeysWithValues: report.resubmitErrors.map { ($0.key.description, $0.value.description) })
            if let sourceError = report.sourceError { errors["source"] = sourceError.description }
            self.errors = errors
            clean = report.isClean
        }
    }
}
