import FulfillmentLedger

/// Ledger records and the event log: reassigning a record with its pending finish, marking it
/// finished, and reading
/// events per transaction and in pages.
enum TransactionCases {
    static let entries = [
        ConformanceEntry(
            "eventsByTransaction", "a transaction's events are read oldest first, up to the limit", eventsByTransaction),
        ConformanceEntry(
            "reassignTransaction",
            "reassigning a transaction moves its record and outbox row; an unknown key changes nothing",
            reassignTransaction),
        ConformanceEntry(
            "markFinished",
            "markFinished ends a pending finish for every read once it returns; the first mark's time stays",
            markFinished),
        ConformanceEntry(
            "eventsAfterSequence",
            "events after a sequence come oldest first, per player or transaction, up to the limit",
            eventsAfterSequence),
    ]

    static func eventsByTransaction(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
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
        context.checkEqual(all.map(\.detail), ["t1 first", "t1 second", "t1 third"], "t1's events, oldest first")
        context.checkEqual(
            all.map(\.sequence), [sequences[0], sequences[3], sequences[4]], "the sequences of t1's events")
        context.checkEqual(all.map(\.playerID), ["p1", "p2", "p1"], "the players of t1's events")
        context.checkEqual(first.map(\.detail), ["t1 first"], "t1's events, limit 1")
        context.checkEqual(none, [], "the events of a transaction without any")
    }

    static func reassignTransaction(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
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
        context.checkEqual(old, [], "p1's records after both moved")
        context.checkEqual(Set(new.map(\.key.transactionID)), ["t1", "t2"], "p2's records")
        context.checkEqual(record, ContractRows.record("t1", player: "p2"), "the record of t1 after the move")
        context.checkEqual(outbox?.playerID, "p2", "the player of t1's pending finish")
        context.checkEqual(outbox?.attemptCount, 0, "the attempts of t1's pending finish")
        context.checkEqual(unknown, nil, "the record of an unknown key reassigned")
    }

    static func markFinished(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        try await store.write { writer throws(LedgerError) in
            for (offset, id) in ["t1", "t2", "t3"].enumerated() {
                var record = ContractRows.record(id)
                record.fulfilledAt = ContractRows.date(Int64(offset))
                try writer.insertTransaction(record)
            }
        }
        // A store may carry the mark into a later transaction; its reads show it at once anyway.
        try await store.markFinished(ContractRows.key("t1"), at: ContractRows.date(100))
        try await store.markFinished(ContractRows.key("t1"), at: ContractRows.date(200))
        let (record, pending, oldest, history) = try await store.read { reader throws(LedgerError) in
            (
                try reader.transaction(ContractRows.key("t1")), try reader.pendingFinish(ContractRows.key("t1")),
                try reader.pendingFinishes(limit: 1), try reader.transactions(playerID: "p1", limit: 10)
            )
        }
        context.checkEqual(record?.finishedAt, ContractRows.date(100), "t1 stamped by its first mark")
        context.checkEqual(pending, nil, "t1's pending finish after the mark")
        context.checkEqual(oldest.map(\.key), [ContractRows.key("t2")], "the oldest pending finish, limit 1")
        context.checkEqual(history.filter(\.isFinished).map(\.key), [ContractRows.key("t1")], "finished in p1's records")
        let seenInWrite = try await store.write { writer throws(LedgerError) in
            try writer.pendingFinishes(limit: 10).map(\.key)
        }
        context.checkEqual(seenInWrite, [ContractRows.key("t2"), ContractRows.key("t3")], "pending finishes inside a write")
    }

    static func eventsAfterSequence(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let appended: [(player: String, transactionID: String?)] = [
            ("p1", "t1"), ("p2", "t1"), ("p1", nil), ("p1", "t1"), ("p1", "t2"),
        ]
        let sequences = try await store.write { writer throws(LedgerError) -> [Int64] in
            var sequences: [Int64] = []
            for (index, (player, transactionID)) in appended.enumerated() {
                let event = ContractRows.event("e\(index)", player: player, transactionID: transactionID)
                sequences.append(try writer.appendEvent(event))
            }
            return sequences
        }
        let reads = try await store.read { reader throws(LedgerError) in
            (
                try reader.events(playerID: "p1", afterSequence: 0, limit: 100),
                try reader.events(playerID: "p1", afterSequence: sequences[0], limit: 2),
                try reader.events(playerID: "p1", afterSequence: sequences[4], limit: 100),
                try reader.events(transaction: ContractRows.key("t1"), afterSequence: 0, limit: 100),
                try reader.events(transaction: ContractRows.key("t1"), afterSequence: sequences[1], limit: 100)
            )
        }
        context.checkEqual(reads.0.map(\.detail), ["e0", "e2", "e3", "e4"], "p1's events after 0")
        context.checkEqual(reads.1.map(\.detail), ["e2", "e3"], "p1's events after the first, limit 2")
        context.checkEqual(reads.2, [], "p1's events after the last")
        context.checkEqual(reads.3.map(\.detail), ["e0", "e1", "e3"], "t1's events after 0")
        context.checkEqual(reads.4.map(\.detail), ["e3"], "t1's events after the second event")
        context.checkEqual(
            reads.0.map(\.sequence), [sequences[0], sequences[2], sequences[3], sequences[4]],
            "the sequences of p1's events")
    }
}
