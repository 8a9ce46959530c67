import Foundation
import FulfillmentLedger

/// How `write` runs its body: again after a retryable conflict, once after any other failure,
/// and rolled back every time it throws.
enum WriteCases {
    static let entries = [
        ConformanceEntry(
            "conflictingBodyRunsAgain",
            "a body that reports a concurrent write runs again on rolled-back state; one that fails otherwise runs once",
            conflictingBodyRunsAgain),
        ConformanceEntry(
            "consentRescissionIsKeptPerStoreAndAccount",
            "a withdrawal of consent reads back as written, per store and account; a second one for the account is refused",
            consentRescissionIsKeptPerStoreAndAccount),
    ]

    static func consentRescissionIsKeptPerStoreAndAccount(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let first = ConsentRescission(
            store: .appStore, accountID: "app-1", rescindedAt: Date(ledgerMilliseconds: 1_700_000_000_123),
            notificationID: "n1", recordedAt: Date(ledgerMilliseconds: 1_700_000_000_456))
        try await store.write { writer throws(LedgerError) in try writer.insertConsentRescission(first) }
        await context.checkConstraintFailure("a second withdrawal for the same store and account") { writer throws(LedgerError) in
            var again = first
            again.notificationID = "n2"
            try writer.insertConsentRescission(again)
        }
        let (found, otherStore, otherAccount) = try await store.read { reader throws(LedgerError) in
            (
                try reader.consentRescission(store: .appStore, accountID: "app-1"),
                try reader.consentRescission(store: .playStore, accountID: "app-1"),
                try reader.consentRescission(store: .appStore, accountID: "app-2")
            )
        }
        context.checkEqual(found, first, "the withdrawal read back (the first, unchanged)")
        context.checkEqual(otherStore, nil, "the same account ID in another store")
        context.checkEqual(otherAccount, nil, "another account")
    }

    static func conflictingBodyRunsAgain(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let conflicted = RunCounter()
        let balance = try await store.write { writer throws(LedgerError) in
            let run = conflicted.next()
            let balance = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 5)
            if run == 1 { throw StoreConflict.purchaseRecordedConcurrently(ContractRows.key("t1")) }
            return balance
        }
        context.checkEqual(conflicted.runs, 2, "the runs of a body that reported a conflict on its first run")
        context.checkEqual(balance, 5, "the balance the second run left (the first run's credit rolled back)")

        let refused = RunCounter()
        let refusal = LedgerError.invalidArgument("refused by the body")
        do throws(LedgerError) {
            try await store.write { writer throws(LedgerError) in
                _ = refused.next()
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 7)
                throw refusal
            }
            context.record("a body that throws a non-retryable error: expected the write to fail, but it committed")
        } catch {
            context.checkEqual(error, refusal, "the error of a body that throws a non-retryable error")
        }
        context.checkEqual(refused.runs, 1, "the runs of a body that throws a non-retryable error")
        context.checkEqual(
            try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p1") }, ["gems": 5],
            "the balances after both writes")
    }
}
