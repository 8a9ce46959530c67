import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerStoreConformance
import Testing

/// The store port's conformance suite (`LedgerStoreConformance`) passes on the in-memory fake,
/// the SQLite store and (when a server is configured) the PostgreSQL store, each case on a
/// fresh store; and it fails a store that breaks the contract.
@Suite("Store contract")
struct StoreContractTests {
    @Test("every conformance case passes on every engine", arguments: StoreKind.allCases, LedgerStoreConformance.caseNames)
    func conformance(kind: StoreKind, name: String) async {
        let suite = LedgerStoreConformance(makeStore: { try await ContractStore(kind) })
        let failures = await suite.run(name)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("a store that keeps what a failed write did fails the rollback case, and only such cases")
    func brokenStoreFails() async {
        let results = await LedgerStoreConformance(makeStore: { NoRollbackLedgerStore() }).runAll()
        #expect(Set(results.keys) == Set(LedgerStoreConformance.caseNames))
        let failed = results.filter { !$0.value.isEmpty }
        #expect(failed.keys.contains("duplicateEventIDFails"), "\(failed)")
        #expect(failed.keys.allSatisfy(NoRollbackLedgerStore.catchingCases.contains), "\(failed)")
        let rollback = results["duplicateEventIDFails"] ?? []
        #expect(rollback.allSatisfy { $0.caseName == "duplicateEventIDFails" && $0.line > 0 })
        #expect(rollback.contains { $0.message.contains("entitlement version") }, "\(rollback)")
    }

    @Test("an unknown case name is a failure, not a pass; names are unique and every case has a summary")
    func caseNames() async {
        let failures = await LedgerStoreConformance(makeStore: { InMemoryLedgerStore() }).run("noSuchCase")
        #expect(failures.map(\.caseName) == ["noSuchCase"])
        #expect(Set(LedgerStoreConformance.caseNames).count == LedgerStoreConformance.caseNames.count)
        #expect(LedgerStoreConformance.cases.allSatisfy { !$0.summary.isEmpty })
    }
}
