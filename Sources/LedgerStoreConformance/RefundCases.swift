import FulfillmentLedger

/// Refunds and revocations: revocation events, refund states, and what a progress reset keeps.
enum RefundCases {
    static let entries = [
        ConformanceEntry(
            "revocationEventsRoundTripAndOrder",
            "revocation events round-trip, order by store date then arrival then ID, and honour the limit",
            revocationEventsRoundTripAndOrder),
        ConformanceEntry(
            "duplicateEventIDFails", "a known event ID fails as a constraint and rolls the whole write back",
            duplicateEventIDFails),
        ConformanceEntry(
            "updateRevocationEvent",
            "an update replaces disposition, effect, debt and reversed, and nothing of the event",
            updateRevocationEvent),
        ConformanceEntry(
            "refundStateUpsert", "refund states: none before, upsert inserts then replaces, nil dates round-trip",
            refundStateUpsert),
        ConformanceEntry(
            "refundStateNeedsLedgerRecord", "a refund state needs its ledger record by commit, not before",
            refundStateNeedsLedgerRecord),
        ConformanceEntry(
            "resetKeepsRefundHistory",
            "a progress reset keeps debt, flags, versions, refund states and revocation events, and its time",
            resetKeepsRefundHistory),
    ]

    static func revocationEventsRoundTripAndOrder(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
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
        context.checkEqual(one, partial, "the event e-partial read back")
        context.checkEqual(missing, nil, "an unknown event ID")
        context.checkEqual(
            ordered.map(\.event.eventID), ["e-first", "e-partial", "e-early", "e-a", "e-b"], "the events of t1, in order")
        context.checkEqual(ordered.first?.event.kind, "futureKind", "the kind of the first event (an unknown kind)")
        context.checkEqual(ordered.last, inserted[1], "the last event of t1")
        context.checkEqual(limited.map(\.event.eventID), ["e-first", "e-partial"], "the events of t1, limit 2")
        context.checkEqual(other.map(\.event.eventID), ["e-other"], "the events of t2")
    }

    static func duplicateEventIDFails(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        try await store.write { writer throws(LedgerError) in
            try writer.insertRevocationEvent(ContractRows.revocation("e1", eventAt: 0, receivedAt: 0))
        }
        await context.checkConstraintFailure("a second event e1") { writer throws(LedgerError) in
            _ = try writer.bumpEntitlementVersion(playerID: "p1")
            try writer.insertRevocationEvent(ContractRows.revocation("e1", "t9", eventAt: 5, receivedAt: 5))
        }
        let (stored, version) = try await store.read { reader throws(LedgerError) in
            (try reader.revocationEvent(id: "e1"), try reader.entitlementVersion(playerID: "p1"))
        }
        context.checkEqual(stored?.event.transactionID, "t1", "the transaction of the stored event e1")
        context.checkEqual(version, 0, "the entitlement version bumped by the failed write")
    }

    static func updateRevocationEvent(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
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
        context.checkEqual(stored, changed, "the updated event e1")
        context.checkEqual(unknown, nil, "an event updated but never inserted")
    }

    static func refundStateUpsert(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let key = ContractRows.key("t1")
        let partial = RefundState(
            key: key, status: .partiallyRefunded, refundedQuantity: 1, lastTakeBackDate: ContractRows.date(7),
            lastReversalDate: nil)
        let reversed = RefundState(
            key: key, status: .active, refundedQuantity: 0, lastTakeBackDate: ContractRows.date(7),
            lastReversalDate: ContractRows.date(9))
        try await store.write { writer throws(LedgerError) in try writer.insertTransaction(ContractRows.record("t1")) }
        context.checkEqual(try await refundState(key, in: store), nil, "the refund state before any upsert")
        for (state, what) in [(partial, "a partial refund"), (reversed, "a reversal"), (.active(key), "active again")] {
            try await store.write { writer throws(LedgerError) in try writer.upsertRefundState(state) }
            context.checkEqual(try await refundState(key, in: store), state, "the refund state after upserting \(what)")
        }
    }

    static func refundStateNeedsLedgerRecord(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        await context.checkConstraintFailure("a refund state without its ledger record") { writer throws(LedgerError) in
            try writer.upsertRefundState(.active(ContractRows.key("t0")))
        }
        // Written before its record in the same write, as a purchase with a waiting refund may be.
        try await store.write { writer throws(LedgerError) in
            try writer.upsertRefundState(.active(ContractRows.key("t1")))
            try writer.insertTransaction(ContractRows.record("t1"))
        }
        let (missing, present) = try await store.read { reader throws(LedgerError) in
            (try reader.refundState(ContractRows.key("t0")), try reader.refundState(ContractRows.key("t1")))
        }
        context.checkEqual(missing, nil, "the refund state of the failed write")
        context.checkEqual(present, .active(ContractRows.key("t1")), "a refund state written before its record")
    }

    static func resetKeepsRefundHistory(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
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
                try reader.balances(playerID: "p1"), try reader.revocationEvent(id: "e1") != nil,
                try reader.refundState(ContractRows.key("t1")), try reader.playerFlags(playerID: "p1", limit: 10),
                try reader.entitlementVersion(playerID: "p1"), try reader.lastReset(playerID: "p1"),
                try reader.lastReset(playerID: "p2")
            )
        }
        context.checkEqual(kept.0, ["coins": -30], "the balances after the reset (debt kept, gems cleared)")
        context.check(kept.1, "the revocation event e1 is gone after the reset")
        context.checkEqual(kept.2, state, "the refund state after the reset")
        context.checkEqual(kept.3, [flag], "the flags after the reset")
        context.checkEqual(kept.4, 1, "the entitlement version after the reset")
        context.checkEqual(kept.5, ContractRows.date(9), "the time of the reset")
        context.checkEqual(kept.6, nil, "the last reset of a player never reset")
    }

    /// The refund state of `key`, read on its own.
    private static func refundState(_ key: TransactionKey, in store: any LedgerStore) async throws(LedgerError)
        -> RefundState?
    {
        try await store.read { reader throws(LedgerError) in try reader.refundState(key) }
    }
}
