import FulfillmentLedger

/// The readable form of `ledger player`: one short section per part of the snapshot.
extension PlayerCommands {
    /// Prints the snapshot as sections of aligned columns; `pending` holds the pending-finish
    /// rows of its unfinished purchases, for their failed attempts; `attempts` the player's
    /// submissions that granted nothing.
    static func printText(
        _ snapshot: PlayerSnapshot, pending: [TransactionKey: PendingFinish], attempts: [AttemptRecord], io: CommandIO
    ) {
        io.print("player \(snapshot.playerID) (entitlement version \(snapshot.entitlementVersion))")
        amounts("balances", ["CURRENCY", "AMOUNT"], snapshot.balances).print(io)
        amounts("debts", ["CURRENCY", "OWED"], snapshot.debts).print(io)
        amounts("inventory", ["ITEM", "COUNT"], snapshot.inventory).print(io)

        var entitlements = TextTable(title: "entitlements", header: ["ENTITLEMENT", "SINCE", "PAID BY"])
        for record in snapshot.entitlements {
            entitlements.append([record.entitlementID, TextTable.time(record.grantedAt), record.source.description])
        }
        entitlements.print(io)

        var flags = TextTable(title: "flags (newest first)", header: ["AT", "FLAG", "KEY", "DETAIL"])
        for flag in snapshot.flags {
            flags.append([TextTable.time(flag.at), flag.flag, flag.transaction?.description ?? "-", flag.detail])
        }
        flags.print(io)

        var purchases = TextTable(
            title: "purchases (newest first, at most \(historyCountMax))",
            header: ["FULFILLED AT", "KEY", "PRODUCT", "QUANTITY", "STATUS"])
        for record in snapshot.history {
            purchases.append([
                TextTable.time(record.fulfilledAt), record.key.description, record.productID, String(record.quantity),
                finishStatus(record, pending: pending[record.key]),
            ])
        }
        purchases.print(io)
        attemptTable(attempts, title: "attempts that granted nothing (newest first, at most \(historyCountMax))").print(io)

        var events = TextTable(
            title: "events (newest first, at most \(historyCountMax))", header: ["#", "AT", "KEY", "KIND", "DETAIL"])
        for event in snapshot.events {
            events.append([
                "#\(event.sequence)", TextTable.time(event.at), event.transaction?.description ?? "-", event.kind.rawValue,
                event.detail,
            ])
        }
        events.print(io)
    }

    /// Journaled attempts as a section: when, the delivery, product, entry point, outcome and
    /// code, how many times, and why.
    static func attemptTable(_ attempts: [AttemptRecord], title: String) -> TextTable {
        var table = TextTable(title: title, header: ["AT", "DELIVERY", "PRODUCT", "PLAYER", "VIA", "OUTCOME", "TIMES", "REASON"])
        for attempt in attempts {
            table.append([
                TextTable.time(attempt.at), "\(attempt.store)/\(attempt.deliveryID)", attempt.storeProductID, attempt.playerID,
                attempt.entryPoint.rawValue, "\(attempt.outcome.rawValue) \(attempt.code)", String(attempt.repeatCount),
                attempt.reason,
            ])
        }
        return table
    }

    /// Whether the platform was told to finish the purchase: `finished TIME`, or
    /// `pending finish (N failed attempt(s), last error: …)` from its pending-finish row.
    static func finishStatus(_ record: TransactionRecord, pending: PendingFinish?) -> String {
        if let finishedAt = record.finishedAt { return "finished \(TextTable.time(finishedAt))" }
        guard let pending else { return "pending finish" }
        let error = pending.lastError.map { ", last error: \($0)" } ?? ""
        return "pending finish (\(pending.attemptCount) failed attempt(s)\(error))"
    }

    /// The pending-finish rows of the unfinished purchases among `history`, in one read. The
    /// history is already bounded (`historyCountMax`), and so is this loop.
    static func pendingFinishes(
        of history: [TransactionRecord], in store: any LedgerStore
    ) async throws(LedgerError) -> [TransactionKey: PendingFinish] {
        let keys = history.filter { !$0.isFinished }.prefix(historyCountMax).map(\.key)
        guard !keys.isEmpty else { return [:] }
        return try await store.read { reader throws(LedgerError) in
            var rows: [TransactionKey: PendingFinish] = [:]
            for key in keys {
                if let row = try reader.pendingFinish(key) { rows[key] = row }
            }
            return rows
        }
    }

    /// A section of named amounts, by name.
    private static func amounts(_ title: String, _ header: [String], _ values: [String: Int64]) -> TextTable {
        TextTable(title: title, header: header, rows: values.sorted { $0.key < $1.key }.map { [$0.key, String($0.value)] })
    }
}
