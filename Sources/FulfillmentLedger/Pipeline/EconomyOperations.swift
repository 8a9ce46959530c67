/// The game's own economy operations (spend, grant), on the same balances purchases use.
extension Ledger {
    /// Applies an idempotent spend or grant. A spend beyond the balance is refused and
    /// changes nothing; a retry with the same operation ID and parameters applies nothing.
    public func apply(_ operation: EconomyOperation) throws(LedgerError) -> OperationOutcome {
        try checkIdentifier(operation.operationID, "operationID")
        try checkIdentifier(operation.playerID, "playerID")
        let now = clock.now()
        return try store.write { writer throws(LedgerError) -> OperationOutcome in
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
            if let refusal = refusal(of: operation) { return refusal }
            let current = try currentAmount(of: operation, reader: writer)
            if operation.direction == .spend, current < operation.amount {
                return .rejected(
                    .insufficientFunds,
                    message: "\(operation.playerID) has \(current) \(operation.assetID), needs \(operation.amount)")
            }
            let delta = operation.direction == .spend ? -operation.amount : operation.amount
            let after: Int64
            switch operation.asset {
            case .currency:
                after = try writer.addToBalance(playerID: operation.playerID, currencyID: operation.assetID, delta: delta)
                if operation.direction == .grant {
                    try Ledger.noteDebtRepaid(
                        before: after - delta, granted: delta, currencyID: operation.assetID,
                        playerID: operation.playerID, source: nil, now: now, writer: writer)
                }
            case .item:
                after = try writer.addToInventory(playerID: operation.playerID, itemID: operation.assetID, delta: delta)
            case .entitlement:
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

    private func currentAmount(of operation: EconomyOperation, reader: any LedgerReader) throws(LedgerError) -> Int64 {
        switch operation.asset {
        case .currency: return try reader.balances(playerID: operation.playerID)[operation.assetID] ?? 0
        case .item: return try reader.inventory(playerID: operation.playerID)[operation.assetID] ?? 0
        case .entitlement: return 0
        }
    }
}
