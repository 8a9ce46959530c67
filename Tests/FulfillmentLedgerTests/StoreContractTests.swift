import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

/// One store of a kind; a SQLite store's temporary directory is removed with it.
final class ContractStore: Sendable {
    let store: any LedgerStore
    private let directory: URL?
    private let postgres: PostgresScratchLease?

    /// Opens an empty store of `kind`.
    init(_ kind: StoreKind) async throws {
        switch kind {
        case .memory:
            store = InMemoryLedgerStore()
            directory = nil
            postgres = nil
        case .sqlite:
            let url = try LedgerHarness.temporaryDirectory()
            store = try SQLiteLedgerStore(path: url.appendingPathComponent("ledger.sqlite").path)
            directory = url
            postgres = nil
        case .postgres:
            let harness = try await LedgerHarness(.postgres)
            store = harness.ledger.store
            directory = nil
            postgres = harness.postgres
        }
    }

    deinit { directory.map { try? FileManager.default.removeItem(at: $0) } }

    /// Runs one write.
    @discardableResult
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await store.write(body)
    }

    /// Runs one read.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await store.read(body)
    }
}

/// Builders of the rows the contract tests store.
enum ContractRows {
    static let epoch: Int64 = 1_780_000_000_000

    /// A date `offset` milliseconds after a fixed instant.
    static func date(_ offset: Int64) -> Date { Date(ledgerMilliseconds: epoch + offset) }

    /// A test-store transaction key.
    static func key(_ transactionID: String) -> TransactionKey {
        TransactionKey(store: .test, transactionID: transactionID)
    }

    /// A fulfilled gems purchase.
    static func record(_ transactionID: String, player: String = "p1") -> TransactionRecord {
        TransactionRecord(
            key: key(transactionID), playerID: player, productID: "gems_small", storeProductID: "test.gems_small",
            productKind: .consumable, quantity: 2, environment: .sandbox, purchaseDate: date(0), fulfilledAt: date(0),
            catalogVersion: "catalog-hash", grants: [GrantLine(kind: .currency, id: "gems", quantity: 200)],
            finishedAt: nil)
    }

    /// A revocation record for `transactionID`, dated and received at the given offsets.
    static func revocation(
        _ eventID: String, _ transactionID: String = "t1", eventAt: Int64, receivedAt: Int64,
        kind: RevocationKind = .fullRefund, quantity: Int? = nil, reason: String? = nil
    ) -> RevocationRecord {
        RevocationRecord(
            event: RevocationEvent(
                eventID: eventID, store: .test, transactionID: transactionID, kind: kind, quantity: quantity,
                eventDate: date(eventAt), reason: reason),
            disposition: .awaitingPurchase, effect: [], debtCreated: [:], receivedAt: date(receivedAt), reversed: false)
    }

    /// A player flag, about `transactionID` if given.
    static func flag(_ flag: String, _ detail: String, transactionID: String?, at offset: Int64) -> PlayerFlag {
        PlayerFlag(flag: flag, detail: detail, transaction: transactionID.map(key), at: date(offset))
    }

    /// A ledger event of `player`, about `transactionID` if given.
    static func event(_ detail: String, player: String = "p1", transactionID: String?) -> LedgerEvent {
        LedgerEvent(
            kind: .purchaseGranted, playerID: player, transaction: transactionID.map(key), at: date(0), detail: detail)
    }
}

/// Whether `error` is a storage constraint failure, in each engine's terms: SQLite's result code
/// 19, PostgreSQL's integrity class 23, the memory store's `constraint`.
func isConstraintFailure(_ error: LedgerError?) -> Bool {
    guard case .storage(let failure)? = error else { return false }
    return failure.sqliteResultCode == 19 || (failure.engine == "postgresql" && failure.code.hasPrefix("23"))
        || (failure.engine == "memory" && failure.code == "constraint")
}

/// The refund, revocation, flag and entitlement-version methods of the store port behave the
/// same in the in-memory fake and the SQLite store.
@Suite("Store contract: refunds and revocations")
struct StoreContractTests {
    @Test("revocation events round-trip, order by store date then arrival then ID, and honour the limit",
        arguments: StoreKind.allCases)
    func revocationEventsRoundTripAndOrder(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        var partial = ContractRows.revocation(
            "e-partial", eventAt: 10, receivedAt: 5, kind: .partialRefund, quantity: 1, reason: "accidental purchase")
        partial.disposition = .applied
        partial.effect = [
            GrantLine(kind: .currency, id: "gems", quantity: -100), GrantLine(kind: .item, id: "x", quantity: 2),
        ]
        partial.debtCreated = ["gems": 40, "coins": 7]
        let inserted = [
            partial,
            ContractRows.revocation("e-b", eventAt: 20, receivedAt: 1),
            ContractRows.revocation("e-a", eventAt: 20, receivedAt: 1),  // same date and arrival: by ID
            ContractRows.revocation("e-early", eventAt: 20, receivedAt: 0),  // same date, earlier arrival
            ContractRows.revocation("e-first", eventAt: 1, receivedAt: 9, kind: "futureKind"),
            ContractRows.revocation("e-other", "t2", eventAt: 0, receivedAt: 0),
        ]
        try await store.write { writer throws(LedgerError) in
            for record in inserted { try writer.insertRevocationEvent(record) }
        }
        let (one, missing, ordered, limited, other) = try await store.read { reader throws(LedgerError) in
            (
                try reader.revocationEvent(id: "e-partial"), try reader.revocationEvent(id: "nope"),
                try reader.revocationEvents(for: ContractRows.key("t1"), limit: 100),
                try reader.revocationEvents(for: ContractRows.key("t1"), limit: 2),
                try reader.revocationEvents(for: ContractRows.key("t2"), limit: 100)
            )
        }
        #expect(one == partial)
        #expect(missing == nil)
        #expect(ordered.map(\.event.eventID) == ["e-first", "e-partial", "e-early", "e-a", "e-b"])
        #expect(ordered.first?.event.kind == "futureKind")
        #expect(ordered.last == inserted[1])
        #expect(limited.map(\.event.eventID) == ["e-first", "e-partial"])
        #expect(other.map(\.event.eventID) == ["e-other"])
    }

    @Test("a known event ID fails as a constraint and rolls the whole write back", arguments: StoreKind.allCases)
    func duplicateEventIDFails(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        try await store.write { writer throws(LedgerError) in
            try writer.insertRevocationEvent(ContractRows.revocation("e1", eventAt: 0, receivedAt: 0))
        }
        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.bumpEntitlementVersion(playerID: "p1")
                try writer.insertRevocationEvent(ContractRows.revocation("e1", "t9", eventAt: 5, receivedAt: 5))
            }
        }
        #expect(isConstraintFailure(error))
        let (stored, version) = try await store.read { reader throws(LedgerError) in
            (try reader.revocationEvent(id: "e1"), try reader.entitlementVersion(playerID: "p1"))
        }
        #expect(stored?.event.transactionID == "t1")
        #expect(version == 0)
    }

    @Test("an update replaces disposition, effect, debt and reversed, and nothing of the event",
        arguments: StoreKind.allCases)
    func updateRevocationEvent(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let original = ContractRows.revocation("e1", eventAt: 3, receivedAt: 4, reason: "fraud")
        var changed = original
        changed.disposition = .applied
        changed.effect = [GrantLine(kind: .entitlement, id: "remove_ads", quantity: -1)]
        changed.debtCreated = ["gems": 12]
        changed.reversed = true
        var attempted = changed
        attempted.event.reason = "rewritten"
        attempted.event.eventDate = ContractRows.date(999)
        attempted.receivedAt = ContractRows.date(999)
        try await store.write { [attempted] writer throws(LedgerError) in
            try writer.insertRevocationEvent(original)
            try writer.updateRevocationEvent(attempted)
            // An unknown ID changes nothing and does not fail.
            try writer.updateRevocationEvent(ContractRows.revocation("e-unknown", eventAt: 0, receivedAt: 0))
        }
        let (stored, unknown) = try await store.read { reader throws(LedgerError) in
            (try reader.revocationEvent(id: "e1"), try reader.revocationEvent(id: "e-unknown"))
        }
        #expect(stored == changed)
        #expect(unknown == nil)
    }

    @Test("refund states: none before, upsert inserts then replaces, nil dates round-trip",
        arguments: StoreKind.allCases)
    func refundStateUpsert(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let key = ContractRows.key("t1")
        let partial = RefundState(
            key: key, status: .partiallyRefunded, refundedQuantity: 1, lastTakeBackDate: ContractRows.date(7),
            lastReversalDate: nil)
        let reversed = RefundState(
            key: key, status: .active, refundedQuantity: 0, lastTakeBackDate: ContractRows.date(7),
            lastReversalDate: ContractRows.date(9))
        try await store.write { writer throws(LedgerError) in try writer.insertTransaction(ContractRows.record("t1")) }
        await #expect(try store.read { reader throws(LedgerError) in try reader.refundState(key) } == nil)
        try await store.write { writer throws(LedgerError) in try writer.upsertRefundState(partial) }
        await #expect(try store.read { reader throws(LedgerError) in try reader.refundState(key) } == partial)
        try await store.write { writer throws(LedgerError) in try writer.upsertRefundState(reversed) }
        await #expect(try store.read { reader throws(LedgerError) in try reader.refundState(key) } == reversed)
        let active = RefundState.active(key)
        try await store.write { writer throws(LedgerError) in try writer.upsertRefundState(active) }
        await #expect(try store.read { reader throws(LedgerError) in try reader.refundState(key) } == active)
    }

    @Test("a refund state needs its ledger record by commit, not before", arguments: StoreKind.allCases)
    func refundStateNeedsLedgerRecord(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                try writer.upsertRefundState(.active(ContractRows.key("t0")))
            }
        }
        #expect(isConstraintFailure(error))
        // Written before its record in the same write, as a purchase with a waiting refund may be.
        try await store.write { writer throws(LedgerError) in
            try writer.upsertRefundState(.active(ContractRows.key("t1")))
            try writer.insertTransaction(ContractRows.record("t1"))
        }
        let (missing, present) = try await store.read { reader throws(LedgerError) in
            (try reader.refundState(ContractRows.key("t0")), try reader.refundState(ContractRows.key("t1")))
        }
        #expect(missing == nil)
        #expect(present == .active(ContractRows.key("t1")))
    }

    @Test("entitlement versions start at 0 and count every bump per player", arguments: StoreKind.allCases)
    func entitlementVersions(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        await #expect(try store.read { reader throws(LedgerError) in try reader.entitlementVersion(playerID: "p1") } == 0)
        let bumps = try await store.write { writer throws(LedgerError) in
            [
                try writer.bumpEntitlementVersion(playerID: "p1"), try writer.bumpEntitlementVersion(playerID: "p1"),
                try writer.bumpEntitlementVersion(playerID: "p2"), try writer.entitlementVersion(playerID: "p1"),
            ]
        }
        #expect(bumps == [1, 2, 1, 2])
        let third = try await store.write { writer throws(LedgerError) in try writer.bumpEntitlementVersion(playerID: "p1") }
        #expect(third == 3)
        let versions = try await store.read { reader throws(LedgerError) in
            [try reader.entitlementVersion(playerID: "p1"), try reader.entitlementVersion(playerID: "p2"),
             try reader.entitlementVersion(playerID: "p3")]
        }
        #expect(versions == [3, 1, 0])
    }

    @Test("an entitlement is owned while some purchase pays for it; releasing one payment removes only it", arguments: StoreKind.allCases)
    func releaseEntitlement(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let results = try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            try writer.insertTransaction(ContractRows.record("t2"))
            let first = EntitlementRecord(
                entitlementID: "remove_ads", grantedAt: ContractRows.date(0), source: ContractRows.key("t1"))
            let second = EntitlementRecord(
                entitlementID: "remove_ads", grantedAt: ContractRows.date(1), source: ContractRows.key("t2"))
            return [
                try writer.grantEntitlement(first, playerID: "p1"),
                try writer.grantEntitlement(first, playerID: "p1"),
                try writer.grantEntitlement(second, playerID: "p1"),
                try writer.grantEntitlement(first, playerID: "p2"),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "remove_ads", source: ContractRows.key("t1")),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "remove_ads", source: ContractRows.key("t1")),
                try writer.releaseEntitlement(playerID: "p1", entitlementID: "never_owned", source: ContractRows.key("t2")),
            ]
        }
        #expect(results == [true, false, true, true, true, false, false])
        let (mine, theirs) = try await store.read { reader throws(LedgerError) in
            (try reader.entitlements(playerID: "p1"), try reader.entitlements(playerID: "p2"))
        }
        #expect(mine.map(\.source) == [ContractRows.key("t2")], "still paid for by t2")
        #expect(theirs.map(\.entitlementID) == ["remove_ads"])
    }

    @Test("payments are read by entitlement, then grant time", arguments: StoreKind.allCases)
    func paymentsOrdered(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        try await store.write { writer throws(LedgerError) in
            for (index, name) in ["t3", "t1", "t2"].enumerated() {
                try writer.insertTransaction(ContractRows.record(name))
                for entitlement in ["vip", "remove_ads"] {
                    _ = try writer.grantEntitlement(
                        EntitlementRecord(
                            entitlementID: entitlement, grantedAt: ContractRows.date(Int64(10 - index)), source: ContractRows.key(name)),
                        playerID: "p1")
                }
            }
        }
        let payments = try await store.read { reader throws(LedgerError) in try reader.entitlements(playerID: "p1") }
        #expect(payments.map { "\($0.entitlementID)/\($0.source.transactionID)" } == [
            "remove_ads/t2", "remove_ads/t1", "remove_ads/t3", "vip/t2", "vip/t1", "vip/t3",
        ])
    }

    @Test("player flags are read newest first, per player, up to the limit", arguments: StoreKind.allCases)
    func playerFlagsNewestFirst(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let flags = [
            ContractRows.flag("refundFloored", "first", transactionID: "t1", at: 5),
            ContractRows.flag("note", "second", transactionID: nil, at: 1),
            ContractRows.flag("refundFloored", "third", transactionID: "t2", at: 3),
        ]
        try await store.write { writer throws(LedgerError) in
            try writer.insertPlayerFlag(flags[0], playerID: "p1")
            try writer.insertPlayerFlag(ContractRows.flag("x", "other", transactionID: nil, at: 0), playerID: "p2")
            try writer.insertPlayerFlag(flags[1], playerID: "p1")
        }
        try await store.write { writer throws(LedgerError) in try writer.insertPlayerFlag(flags[2], playerID: "p1") }
        let (all, two, none) = try await store.read { reader throws(LedgerError) in
            (
                try reader.playerFlags(playerID: "p1", limit: 100), try reader.playerFlags(playerID: "p1", limit: 2),
                try reader.playerFlags(playerID: "p3", limit: 100)
            )
        }
        // Newest means inserted last, whatever the flag's own date.
        #expect(all == flags.reversed())
        #expect(two == Array(flags.reversed().prefix(2)))
        #expect(none.isEmpty)
    }

    @Test("a transaction's events are read oldest first, up to the limit", arguments: StoreKind.allCases)
    func eventsByTransaction(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let sequences = try await store.write { writer throws(LedgerError) in
            [
                try writer.appendEvent(ContractRows.event("t1 first", transactionID: "t1")),
                try writer.appendEvent(ContractRows.event("t2", transactionID: "t2")),
                try writer.appendEvent(ContractRows.event("no transaction", transactionID: nil)),
                try writer.appendEvent(ContractRows.event("t1 second", player: "p2", transactionID: "t1")),
                try writer.appendEvent(ContractRows.event("t1 third", transactionID: "t1")),
            ]
        }
        let (all, first, none) = try await store.read { reader throws(LedgerError) in
            (
                try reader.events(transaction: ContractRows.key("t1"), limit: 100),
                try reader.events(transaction: ContractRows.key("t1"), limit: 1),
                try reader.events(transaction: ContractRows.key("t3"), limit: 100)
            )
        }
        #expect(all.map(\.detail) == ["t1 first", "t1 second", "t1 third"])
        #expect(all.map(\.sequence) == [sequences[0], sequences[3], sequences[4]])
        #expect(all.map(\.playerID) == ["p1", "p2", "p1"])
        #expect(first.map(\.detail) == ["t1 first"])
        #expect(none.isEmpty)
    }

    @Test("reassigning a transaction moves its record and outbox row; an unknown key changes nothing",
        arguments: StoreKind.allCases)
    func reassignTransaction(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            var finished = ContractRows.record("t2")
            finished.finishedAt = ContractRows.date(1)
            try writer.insertTransaction(finished)
        }
        try await store.write { writer throws(LedgerError) in
            try writer.reassignTransaction(ContractRows.key("t1"), toPlayerID: "p2")
            try writer.reassignTransaction(ContractRows.key("t2"), toPlayerID: "p2")  // finished: not pending
            try writer.reassignTransaction(ContractRows.key("t-unknown"), toPlayerID: "p2")
        }
        let (old, new, record, outbox, unknown) = try await store.read { reader throws(LedgerError) in
            (
                try reader.transactions(playerID: "p1", limit: 10), try reader.transactions(playerID: "p2", limit: 10),
                try reader.transaction(ContractRows.key("t1")), try reader.pendingFinish(ContractRows.key("t1")),
                try reader.transaction(ContractRows.key("t-unknown"))
            )
        }
        #expect(old.isEmpty)
        #expect(Set(new.map(\.key.transactionID)) == ["t1", "t2"])
        #expect(record == ContractRows.record("t1", player: "p2"))
        #expect(outbox?.playerID == "p2")
        #expect(outbox?.attemptCount == 0)
        #expect(unknown == nil)
    }

    @Test("a progress reset keeps debt, flags, versions, refund states and revocation events, and its time", arguments: StoreKind.allCases)
    func resetKeepsRefundHistory(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let state = RefundState(
            key: ContractRows.key("t1"), status: .refunded, refundedQuantity: 2, lastTakeBackDate: ContractRows.date(1),
            lastReversalDate: nil)
        let flag = ContractRows.flag("refundFloored", "d", transactionID: "t1", at: 1)
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 5)
            _ = try writer.addToBalance(playerID: "p1", currencyID: "coins", delta: -30)
            try writer.insertRevocationEvent(ContractRows.revocation("e1", eventAt: 1, receivedAt: 1))
            try writer.upsertRefundState(state)
            try writer.insertPlayerFlag(flag, playerID: "p1")
            _ = try writer.bumpEntitlementVersion(playerID: "p1")
            try writer.resetProgress(playerID: "p1", at: ContractRows.date(9))
        }
        let kept = try await store.read { reader throws(LedgerError) in
            (
                try reader.balances(playerID: "p1") == ["coins": -30], try reader.revocationEvent(id: "e1") != nil,
                try reader.refundState(ContractRows.key("t1")), try reader.playerFlags(playerID: "p1", limit: 10),
                try reader.entitlementVersion(playerID: "p1"), try reader.lastReset(playerID: "p1"),
                try reader.lastReset(playerID: "p2")
            )
        }
        #expect(kept.0)
        #expect(kept.1)
        #expect(kept.2 == state)
        #expect(kept.3 == [flag])
        #expect(kept.4 == 1)
        #expect(kept.5 == ContractRows.date(9) && kept.6 == nil)
    }
}
