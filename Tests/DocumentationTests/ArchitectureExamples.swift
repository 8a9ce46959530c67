import AppStoreAdapter
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerStoreConformance
import PostgresLedgerStore
import SQLiteLedgerStore
import Testing
import XCTest

// The examples of Architecture.md, Concepts.md, Catalog.md, FailureModel.md and PostgreSQL.md,
// compiled line for line (DocumentedBlocks checks the pages show this code) and run where they do
// something (ArchitectureExamplesTests). The reader's own store module of Architecture.md's conformance
// examples (`import MyStore`) is stood for by `MyLedgerStore` below.

/// The reader's store of Architecture.md's conformance examples: here the in-memory store.
enum MyLedgerStore {
    static func openEmptyScratch() async throws -> InMemoryLedgerStore { InMemoryLedgerStore() }
}

/// Architecture.md: the ledger's configuration.
func configurationExample() -> LedgerConfiguration {
    // BEGIN Docs/Architecture.md configuration
    var configuration = LedgerConfiguration.production
    configuration.accountBinding = { AppAccountToken.forPlayer($0) }  // the appAccountToken the client sets
    configuration.ownershipTransfer = .nonConsumablesOnRestore
    configuration.finishWarningAgeSeconds = 12 * 60 * 60
    // END Docs/Architecture.md configuration
    return configuration
}

// BEGIN Docs/Architecture.md conformance-testing
// Package.swift: .testTarget(name: "MyStoreTests", dependencies: [
//     "MyStore", .product(name: "LedgerStoreConformance", package: "FulfillmentLedger")])

@Test("my store passes the store contract", arguments: LedgerStoreConformance.caseNames)
func conformance(name: String) async {
    let suite = LedgerStoreConformance(makeStore: { try await MyLedgerStore.openEmptyScratch() })
    let failures = await suite.run(name)
    #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
}
// END Docs/Architecture.md conformance-testing

// BEGIN Docs/Architecture.md conformance-xctest
final class MyStoreConformanceTests: XCTestCase {
    func testStoreContract() async {
        let suite = LedgerStoreConformance(makeStore: { try await MyLedgerStore.openEmptyScratch() })
        for (_, failures) in await suite.runAll() {
            for failure in failures { XCTFail(failure.description) }
        }
    }
}
// END Docs/Architecture.md conformance-xctest

/// Architecture.md: a conformance suite that also classifies the store's unique-violation errors.
func conformanceClassifierExample() -> LedgerStoreConformance {
    // BEGIN Docs/Architecture.md conformance-classifier
    LedgerStoreConformance(makeStore: { try await MyLedgerStore.openEmptyScratch() }) { error in
        guard case .storage(let failure) = error else { return false }
        return failure.engine == "mydb" && failure.code == "unique_violation"
    }
    // END Docs/Architecture.md conformance-classifier
}

/// Concepts.md: a refund reported by a store.
func revocationExample(ledger: Ledger, signedDate: Date) async throws {
    // BEGIN Docs/Concepts.md revocation
    let event = RevocationEvent(
        eventID: "notification-5f2a",     // the store's unique notification ID: the idempotency key
        store: .appStore,
        transactionID: "2000000123456789",
        kind: .partialRefund,
        quantity: 1,                      // partialRefund only: units refunded (by this event, or in all
                                          // with quantityIsCumulative: true)
        eventDate: signedDate,            // the store's signed date; orders the events
        reason: "customer request")       // optional, kept for the history
    switch try await ledger.applyRevocation(event) {
    case .recorded(let record), .alreadyRecorded(let record):
        print(record.disposition, record.effect, record.debtCreated)
    case .rejected(let rejection):
        print(rejection.reason, rejection.message)
    }
    // END Docs/Concepts.md revocation
}

/// Concepts.md: eligibility with a quantity, before payment.
func eligibilityExample(ledger: Ledger, playerID: String) async throws {
    // BEGIN Docs/Concepts.md eligibility
    // StoreKit 2: the quantity the game passes to Product.PurchaseOption.quantity(_:).
    // (On Google Play the buyer picks the quantity in the checkout; ask with 1.)
    let quantity = 3
    switch try await ledger.eligibility(playerID: playerID, productID: "weekly_offer", quantity: quantity) {
    case .eligible: break                                 // start the purchase of 3
    case .limitReached(let limit, let count, _):          // offer at most limit.count - count
        print("only \(max(0, limit.count - count)) left this week")
    case .invalidQuantity(_, let quantityMax): print("choose 1 to \(quantityMax)")
    case .alreadyOwned, .unknownProduct: print("not for sale to this player")
    }
    // END Docs/Concepts.md eligibility
}

/// Concepts.md: a spend applied once by its operation ID.
func operationExample(ledger: Ledger) async throws -> OperationOutcome {
    // BEGIN Docs/Concepts.md operation
    let outcome = try await ledger.apply(.spend(50, of: "gems", player: "p1", operationID: "shop-7f3a"))
    // .applied(OperationRecord) | .alreadyApplied(OperationRecord) | .rejected(reason, message:)
    // END Docs/Concepts.md operation
    return outcome
}

/// Catalog.md: a catalog reloaded in a running server.
func catalogReloadExample(ledger: Ledger) {
    // BEGIN Docs/Catalog.md catalog-reload
    do {
        let loaded = try ledger.reloadCatalog(path: "ProductCatalog.json")
        print("catalog \(loaded.versionHash.prefix(12)) is in force")
    } catch {
        print("catalog refused; the previous one stays in force: \(error)")
    }
    // END Docs/Catalog.md catalog-reload
}

/// FailureModel.md: a SQLite store that is never created by accident. Compiled, not run: it opens
/// a fixed path.
func sqliteOptionsExample() throws {
    // BEGIN Docs/FailureModel.md sqlite-options
    var options = SQLiteLedgerStore.Options()
    options.createIfMissing = false
    let store = try SQLiteLedgerStore(path: "/var/lib/game/ledger.sqlite", options: options)
    // END Docs/FailureModel.md sqlite-options
    _ = store
}

/// PostgreSQL.md: the PostgreSQL store. Compiled, not run: it connects to a fixed server
/// (PostgresLedgerStoreTests run the store against the test server).
func postgresStoreExample(catalog: ProductCatalog, verifier: any TransactionVerifier, finisher: any PlatformFinisher)
    async throws
{
    // BEGIN Docs/PostgreSQL.md postgres-store
    var options = PostgresLedgerStore.Options(connectionString: "postgresql://ledger@db.internal/economy")
    options.createIfMissing = false      // a server never creates a ledger by accident
    options.pool.connectionCountMax = 8  // per server process; the default
    let store = try await PostgresLedgerStore(options: options)
    let ledger = try Ledger(catalog: catalog, store: store, verifier: verifier, finisher: finisher, configuration: .production)
    // END Docs/PostgreSQL.md postgres-store
    _ = ledger
}
