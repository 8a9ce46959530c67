import FulfillmentLedger
import LedgerSQL

/// What a copy of a ledger into PostgreSQL did (`ledger migrate`): the shared copy's report.
public typealias PostgresImportReport = LedgerImportReport

/// Copies a ledger from another engine into an empty PostgreSQL ledger and checks the result
/// (`LedgerImport`, written once for every target engine): this opens the target.
package enum PostgresLedgerImport {
    /// Copies `source` into the database at `connectionString`, creating the ledger's tables in
    /// an empty database. A database that already holds ledger rows is refused untouched
    /// (`refusedTargetNotEmpty`). Throws for a target that is not a ledger, a source whose
    /// columns differ from the target's, and storage failures; a failed copy leaves no row.
    package static func run(source: any LedgerRowSource, connectionString: String) async throws(LedgerError) -> PostgresImportReport {
        var options = PostgresLedgerStore.Options(connectionString: connectionString)
        // The copy is one transaction, and its check one more after it.
        options.pool.connectionCountMax = 1
        let store = try await PostgresLedgerStore(options: options)
        do throws(LedgerError) {
            let report = try await LedgerImport.run(source: source, into: store, target: store.location)
            await store.close()
            return report
        } catch {
            await store.close()
            throw error
        }
    }
}
