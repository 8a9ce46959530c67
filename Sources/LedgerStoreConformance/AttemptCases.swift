import FulfillmentLedger

/// The attempts journal and the order-ID lookup: rows round-trip, reads find them by player and
/// by any of their IDs, repeats count on one row, and every write keeps the journal's bounds.
enum AttemptCases {
    static let entries = [
        ConformanceEntry(
            "attemptsRoundTripAndMatch",
            "attempts round-trip, read newest first by player and by delivery, purchase or order ID, up to the limit",
            attemptsRoundTripAndMatch),
        ConformanceEntry(
            "attemptRepeatsCountOnOneRow",
            "the same attempt again counts on the newest row of its delivery; any difference writes a new row",
            attemptRepeatsCountOnOneRow),
        ConformanceEntry(
            "attemptCountBoundPerBudget",
            "each budget keeps at most its count, oldest out first, and a flood of one never evicts the other",
            attemptCountBoundPerBudget),
        ConformanceEntry(
            "attemptAgeBound", "a write removes expired attempts among its budget's oldest, and only those",
            attemptAgeBound),
        ConformanceEntry(
            "transactionByOrderID", "a record's store order ID round-trips and finds it; nil finds nothing",
            transactionByOrderID),
    ]

    /// An attempt of `deliveryID`, `offset` milliseconds after the epoch.
    static func attempt(
        _ deliveryID: String, player: String = "p1", purchaseID: String? = nil, orderID: String? = nil,
        code: String = "unknownProduct", verified: Bool = true, at offset: Int64 = 0
    ) -> AttemptRecord {
        AttemptRecord(
            store: .test, deliveryID: deliveryID, purchaseID: purchaseID, orderID: orderID,
            storeProductID: "test.gems_small", playerID: player, outcome: .rejected, code: code,
            reason: "no catalog product maps test/test.gems_small", at: ContractRows.date(offset),
            entryPoint: .client, isVerified: verified)
    }

    static let roomy = AttemptRetention(countMax: 100, unverifiedCountMax: 100, ageSecondsMax: 1_000_000, reasonByteCountMax: 512)

    static func attemptsRoundTripAndMatch(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let written = [
            attempt("d1", purchaseID: "o1", at: 1),
            attempt("d2", player: "p2", orderID: "GPA.1", at: 2),
            AttemptRecord(
                store: .playStore, deliveryID: "d3", purchaseID: "o1", orderID: nil, storeProductID: "play.gems",
                playerID: "p1", outcome: .failed, code: "ledger.storage", reason: "disk full", at: ContractRows.date(3),
                entryPoint: "futureEntryPoint", isVerified: false),
        ]
        let sequences = try await store.write { writer throws(LedgerError) in
            try written.map { (record) throws(LedgerError) in try writer.appendAttempt(record, retention: roomy) }
        }
        context.check(sequences == sequences.sorted() && Set(sequences).count == 3, "attempt sequences rise: \(sequences)")
        let (byPlayer, limited, byPurchase, byOrder, byDelivery, none) = try await store.read { reader throws(LedgerError) in
            (
                try reader.attempts(playerID: "p1", limit: 10), try reader.attempts(playerID: "p1", limit: 1),
                try reader.attempts(matchingID: "o1", limit: 10), try reader.attempts(matchingID: "GPA.1", limit: 10),
                try reader.attempts(matchingID: "d2", limit: 10), try reader.attempts(matchingID: "zz", limit: 10)
            )
        }
        var expected = written[2]
        expected.sequence = sequences[2]
        context.checkEqual(byPlayer.first, expected, "p1's newest attempt read back whole")
        context.checkEqual(byPlayer.map(\.deliveryID), ["d3", "d1"], "p1's attempts, newest first")
        context.checkEqual(limited.map(\.deliveryID), ["d3"], "p1's attempts, limit 1")
        context.checkEqual(byPurchase.map(\.deliveryID), ["d3", "d1"], "the attempts of purchase o1")
        context.checkEqual(byOrder.map(\.deliveryID), ["d2"], "the attempts of order GPA.1")
        context.checkEqual(byDelivery.map(\.playerID), ["p2"], "the attempts of delivery d2")
        context.checkEqual(none.count, 0, "the attempts of an unknown ID")
    }

    static func attemptRepeatsCountOnOneRow(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let (first, again, other) = try await store.write { writer throws(LedgerError) in
            let first = try writer.appendAttempt(attempt("d1", at: 1), retention: roomy)
            var repeated = attempt("d1", at: 5)
            repeated.reason = "still no catalog product"
            let again = try writer.appendAttempt(repeated, retention: roomy)
            let other = try writer.appendAttempt(attempt("d1", code: "pending", at: 6), retention: roomy)
            return (first, again, other)
        }
        context.checkEqual(again, first, "the sequence a repeated attempt returns")
        context.check(other > first, "another code writes a new row")
        let rows = try await store.read { reader throws(LedgerError) in try reader.attempts(matchingID: "d1", limit: 10) }
        context.checkEqual(rows.map(\.code), ["pending", "unknownProduct"], "the rows of d1")
        context.checkEqual(rows.last?.repeatCount, 2, "the repeat count of the first row")
        context.checkEqual(rows.last?.at, ContractRows.date(1), "the first row's first time")
        context.checkEqual(rows.last?.lastAt, ContractRows.date(5), "the first row's last time")
        context.checkEqual(rows.last?.reason, "still no catalog product", "the first row's reason, the latest")
        context.checkEqual(rows.first?.repeatCount, 1, "the repeat count of a single attempt")
    }

    static func attemptCountBoundPerBudget(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let tight = AttemptRetention(countMax: 3, unverifiedCountMax: 2, ageSecondsMax: 1_000_000, reasonByteCountMax: 512)
        try await store.write { writer throws(LedgerError) in
            for index in 0..<3 { try writer.appendAttempt(attempt("v\(index)", at: Int64(index)), retention: tight) }
            for index in 0..<40 {
                try writer.appendAttempt(attempt("u\(index)", verified: false, at: Int64(10 + index)), retention: tight)
            }
        }
        let (verified, unverified, verifiedCount, unverifiedCount) = try await store.read { reader throws(LedgerError) in
            (
                try reader.attempts(playerID: "p1", limit: 100).filter(\.isVerified).map(\.deliveryID),
                try reader.attempts(playerID: "p1", limit: 100).filter { !$0.isVerified }.map(\.deliveryID),
                try reader.attemptCount(verified: true), try reader.attemptCount(verified: false)
            )
        }
        context.checkEqual(verified, ["v2", "v1", "v0"], "the verified attempts after a flood of unverified ones")
        context.checkEqual(unverified, ["u39", "u38"], "the unverified attempts kept: the newest 2")
        context.checkEqual(verifiedCount, 3, "the verified count")
        context.checkEqual(unverifiedCount, 2, "the unverified count")
        try await store.write { writer throws(LedgerError) in
            try writer.appendAttempt(attempt("v3", at: 100), retention: tight)
        }
        let after = try await store.read { reader throws(LedgerError) in
            (try reader.attempts(playerID: "p1", limit: 100).filter(\.isVerified).map(\.deliveryID), try reader.attemptCount(verified: true))
        }
        context.checkEqual(after.0, ["v3", "v2", "v1"], "the verified attempts after one more: the oldest went")
        context.checkEqual(after.1, 3, "the verified count after one more")
    }

    static func attemptAgeBound(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let aging = AttemptRetention(countMax: 100, unverifiedCountMax: 100, ageSecondsMax: 10, reasonByteCountMax: 512)
        try await store.write { writer throws(LedgerError) in
            try writer.appendAttempt(attempt("old1", at: 0), retention: aging)
            try writer.appendAttempt(attempt("old2", at: 1_000), retention: aging)
            try writer.appendAttempt(attempt("young", at: 9_000), retention: aging)
            try writer.appendAttempt(attempt("other-budget", verified: false, at: 0), retention: aging)
        }
        try await store.write { writer throws(LedgerError) in
            // 10.5 s after the first: only attempts written before 0.5 s have expired.
            try writer.appendAttempt(attempt("now", at: 10_500), retention: aging)
        }
        let (left, count) = try await store.read { reader throws(LedgerError) in
            (try reader.attempts(playerID: "p1", limit: 100).map(\.deliveryID), try reader.attemptCount(verified: true))
        }
        context.checkEqual(left, ["now", "other-budget", "young", "old2"], "the attempts left after the expiry")
        context.checkEqual(count, 3, "the verified count after the expiry")
    }

    static func transactionByOrderID(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        var record = ContractRows.record("token-1")
        record.storeOrderID = "GPA.3333-4444"
        let withOrder = record
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(withOrder)
            try writer.insertTransaction(ContractRows.record("token-2"))
        }
        let (found, other, missing, plain) = try await store.read { reader throws(LedgerError) in
            (
                try reader.transaction(store: .test, orderID: "GPA.3333-4444"),
                try reader.transaction(store: .appStore, orderID: "GPA.3333-4444"),
                try reader.transaction(store: .test, orderID: "GPA.none"), try reader.transaction(ContractRows.key("token-2"))
            )
        }
        context.checkEqual(found, withOrder, "the record found by its order ID")
        context.checkEqual(other, nil, "the order ID in another store")
        context.checkEqual(missing, nil, "an unknown order ID")
        context.checkEqual(plain?.storeOrderID, nil, "a record without an order ID")
    }
}
