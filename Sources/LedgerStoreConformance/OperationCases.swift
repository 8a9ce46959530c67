import FulfillmentLedger

/// Economy operations: an applied spend or grant round-trips by its ID, and a player's
/// operations read back newest first, up to the limit, without another player's.
enum OperationCases {
    static let entries = [
        ConformanceEntry(
            "operationsByPlayer",
            "a player's operations read back whole, newest first (ties by operation ID), up to the limit, and no one else's",
            operationsByPlayer)
    ]

    /// A currency operation of `player`, applied `offset` milliseconds after the epoch.
    static func operation(
        _ operationID: String, player: String = "p1", direction: EconomyOperation.Direction = .grant, amount: Int64 = 5,
        balanceAfter: Int64 = 5, at offset: Int64
    ) -> OperationRecord {
        OperationRecord(
            operation: EconomyOperation(
                operationID: operationID, playerID: player, direction: direction, asset: .currency, assetID: "gems",
                amount: amount),
            balanceAfter: balanceAfter, appliedAt: ContractRows.date(offset))
    }

    static func operationsByPlayer(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let written = [
            operation("op-b", at: 10),
            operation("op-a", direction: .spend, amount: 3, balanceAfter: 2, at: 30),
            operation("op-c", balanceAfter: 7, at: 30),
            operation("op-z", player: "p2", at: 40),
            operation("op-d", balanceAfter: 12, at: 20),
        ]
        try await store.write { writer throws(LedgerError) in
            for record in written { try writer.insertOperation(record) }
        }
        let (all, limited, none, zero, byID) = try await store.read { reader throws(LedgerError) in
            (
                try reader.operations(playerID: "p1", limit: 10), try reader.operations(playerID: "p1", limit: 2),
                try reader.operations(playerID: "p3", limit: 10), try reader.operations(playerID: "p1", limit: 0),
                try reader.operation(id: "op-a")
            )
        }
        context.checkEqual(
            all.map(\.operation.operationID), ["op-c", "op-a", "op-d", "op-b"],
            "p1's operations, newest first, ties by operation ID")
        context.checkEqual(all.first, written[2], "p1's newest operation read back whole")
        context.checkEqual(limited.map(\.operation.operationID), ["op-c", "op-a"], "p1's operations, limit 2")
        context.checkEqual(none.count, 0, "the operations of a player without any")
        context.checkEqual(zero.count, 0, "p1's operations, limit 0")
        context.checkEqual(byID, written[1], "op-a by its ID")
    }
}
