import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// Limits that fit the stores, and outside values refused with a typed error, never trapped on.
@Suite struct InputLimitTests {
    static func document(_ transactionID: String, store: PlatformStore = .test, date: Date? = nil) -> TransactionSubmission {
        TestStoreTransaction(
            store: store, transactionID: transactionID, storeProductID: "test.gems_small", playerID: "p1",
            purchaseDate: date ?? Date(timeIntervalSince1970: 1_767_571_200)
        ).submission()
    }

    /// A Play purchase token is the ledger key of a Play purchase and is far longer than
    /// other IDs: Google's sample is about 1,950 characters.
    @Test(arguments: StoreKind.allCases)
    func aTokenLongTransactionIDIsAccepted(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let token = String(repeating: "aBc1-_.", count: 300)
        #expect(token.utf8.count > 2_000)
        #expect(try await harness.ledger.fulfill(Self.document(token)).name == "granted")
        #expect(try await harness.ledger.fulfill(Self.document(token)).name == "alreadyFulfilled")
        let refund = RevocationEvent(
            eventID: "voided:\(token):1767571200000", store: .test, transactionID: token, kind: .fullRefund,
            eventDate: harness.clock.now())
        await #expect(try harness.ledger.applyRevocation(refund).record?.disposition == .applied)
        let tooLong = String(repeating: "x", count: harness.ledger.configuration.transactionIDByteCountMax + 1)
        await #expect(throws: LedgerError.self) { try await harness.ledger.fulfill(Self.document(tooLong)) }
    }

    /// Store names are a closed set: an unknown store is refused before any key is built.
    @Test func unknownStoresAreRefusedEverywhere() async throws {
        let harness = try await LedgerHarness(.memory)
        let stranger = PlatformStore(rawValue: "test/a")
        await #expect(throws: LedgerError.self) { try await harness.ledger.fulfill(Self.document("b", store: stranger)) }
        await #expect(throws: LedgerError.self) {
            try await harness.ledger.applyRevocation(
                RevocationEvent(eventID: "e", store: stranger, transactionID: "b", kind: .fullRefund, eventDate: Date()))
        }
        await #expect(throws: LedgerError.self) {
            try await harness.ledger.restore(playerID: "p1", query: .answered(store: stranger, transactions: []))
        }
        await #expect(throws: LedgerError.self) {
            try await harness.ledger.restore(
                playerID: "p1", query: .answered(store: .appStore, transactions: [Self.document("c")]))
        }
        await #expect(try harness.ledger.player("p1").history.isEmpty)
    }

    /// Dates outside what the ledger keeps exactly are refused, not trapped on.
    @Test func outOfRangeDatesAreRefused() async throws {
        let harness = try await LedgerHarness(.memory)
        let far = Date(timeIntervalSince1970: Double(Int64.max))
        #expect(far.ledgerMilliseconds == Int64.max, "clamped, never a trap")
        #expect(Date(timeIntervalSince1970: -.infinity).ledgerMilliseconds == Int64.min)
        #expect(!far.isInLedgerRange && !Date(timeIntervalSince1970: -1).isInLedgerRange)
        #expect(Date(ledgerMilliseconds: Date.ledgerMillisecondsRange.upperBound).isInLedgerRange)
        #expect(!Date(ledgerMilliseconds: Date.ledgerMillisecondsRange.upperBound + 1).isInLedgerRange)
        let late = TestStoreTransaction.parseDate("2500-01-01T00:00:00Z")!
        let outcome = try await harness.ledger.fulfill(Self.document("t1", date: late))
        #expect(outcome.rejection?.reason == .unverified)
        await #expect(throws: LedgerError.self) {
            try await harness.ledger.applyRevocation(
                RevocationEvent(eventID: "e", store: .test, transactionID: "t1", kind: .fullRefund, eventDate: far))
        }
        await #expect(throws: LedgerError.self) {
            try await harness.ledger.restore(
                playerID: "p1", query: .answered(store: .test, transactions: [], authoritativeAsOf: far))
        }
        await #expect(try harness.ledger.player("p1").history.isEmpty)
    }
}
