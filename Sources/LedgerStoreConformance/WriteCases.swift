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
        ConformanceEntry(
            "accountTokenBindingIsKeptPerStoreAndToken",
            "an account token's binding reads back as written, per store and token; a second one for the token is refused",
            accountTokenBindingIsKeptPerStoreAndToken),
    ]

    static func accountTokenBindingIsKeptPerStoreAndToken(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let first = AccountTokenBinding(
            store: .appStore, token: "3f1b0c7e-5a2d-8c4e-9f10-2b3c4d5e6f70", playerID: "player-1",
            boundAt: Date(ledgerMilliseconds: 1_700_000_000_123), source: .registration)
        try await store.write { writer throws(LedgerError) in try writer.insertAccountTokenBinding(first) }
        await context.checkConstraintFailure("a second binding of the same store and token") { writer throws(LedgerError) in
            var again = first
            again.playerID = "player-2"
            again.source = .grant
            try writer.insertAccountTokenBinding(again)
        }
        let (found, otherStore, otherToken) = try await store.read { reader throws(LedgerError) in
            (
                try reader.accountTokenBinding(store: .appStore, token: first.token),
                try reader.accountTokenBinding(store: .playStore, token: first.token),
                try reader.accountTokenBinding(store: .appStore, token: "player-1")
            )
        }
        context.checkEqual(found, first, "the binding read back (the first, unchanged)")
        context.checkEqual(otherStore, nil, "the same token in another store")
        context.checkEqual(otherToken, nil, "another token")
    }

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
