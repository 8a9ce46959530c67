/// The game's own economy operations (spend, grant), on the same balances purchases use.
extension Ledger {
    /// Applies an idempotent spend or grant. A spend beyond the balance is refused and
    /// changes nothing; a retry with the same operation ID and parameters applies nothing.
    public func apply(_ operation: EconomyOperation) async throws(LedgerError) -> OperationOutcome {
        try checkIdentifier(operation.operationID, "operationID")
        try checkIdentifier(operation.playerID, "playerID")
        let now = clock.now()
        return try await commit { writer throws(LedgerError) -> OperationOutcome in
            // A retry of an applied operation is answered first, whatever the catalog says now:
            // a reload since may have removed the asset it spent.
            if let existing = try writer.operation(id: operation.operationID) {
                guard existing.operation == operation else {
                    return .rejected(
                        .conflictOperation,
                        message: "operation \(operation.operationID) was already applied with other parameters")
                }
                return .alreadyApplied(existing)
            }
            if let refusal = self.refusal(of: operation) { return refusal }
            let after: Int64
            switch (operation.direction, operation.asset) {
            case (.spend, _):
                // One atomic check-and-take: a concurrent refund or spend cannot slip between them.
                guard
                    let left = try writer.spend(
                        playerID: operation.playerID, asset: operation.asset, assetID: operation.assetID,
                        amount: operation.amount)
                else {
                    let current = try Self.currentAmount(of: operation, reader: writer)
                    return .rejected(
                        .insufficientFunds,
                        message: "\(operation.playerID) has \(current) \(operation.assetID), needs \(operation.amount)")
                }
                after = left
            case (.grant, .currency):
                after = try writer.addToBalance(
                    playerID: operation.playerID, currencyID: operation.assetID, delta: operation.amount)
                try Ledger.noteDebtRepaid(
                    before: after - operation.amount, granted: operation.amount, currencyID: operation.assetID,
                    playerID: operation.playerID, source: nil, now: now, writer: writer)
            case (.grant, .item):
                after = try writer.addToInventory(playerID: operation.playerID, itemID: operation.assetID, delta: operation.amount)
            case (.grant, .entitlement):
                preconditionFailure("refusal(of:) lets no entitlement operation through")
            }
            let record = OperationRecord(operation: operation, balanceAfter: after, appliedAt: now)
            try writer.insertOperation(record)
            try writer.appendEvent(
                LedgerEvent(
                    kind: .operationApplied, playerID: operation.playerID, transaction: nil, at: now,
                    detail: "\(operation.direction.rawValue) \(operation.amount) \(operation.assetID) (\(operation.operationID)); now \(after)"))
            return .applied(record)
        }
    }

    private func refusal(of operation: EconomyOperation) -> OperationOutcome? {
        guard operation.amount >= 1, operation.amount <= configuration.operationAmountMax else {
            return .rejected(
                .invalidAmount,
                message: "amount must be 1 to \(configuration.operationAmountMax), got \(operation.amount)")
        }
        let known: Bool
        switch operation.asset {
        case .currency: known = catalog.hasCurrency(operation.assetID)
        case .item: known = catalog.hasItem(operation.assetID)
        case .entitlement: known = false
        }
        guard known else {
            return .rejected(
                .unknownAsset, message: "\(operation.asset.rawValue) \(operation.assetID) is not spendable or grantable here")
        }
        return nil
    }

    private static func currentAmount(of operation: EconomyOperation, reader: LedgerReader) throws(LedgerError) -> Int64 {
        switch operation.asset {
        case .currency: return try reader.balances(playerID: operation.playerID)[operation.assetID] ?? 0
        case .item: return try reader.inventory(playerID: operation.playerID)[operation.assetID] ?? 0
        case .entitlement: return 0
        }
    }
}
