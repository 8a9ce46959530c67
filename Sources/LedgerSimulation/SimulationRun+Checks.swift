import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// The other actions, and the invariants checked after every step.
extension SimulationRun {
    func spend() async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let operation: EconomyOperation
        if random.chance(20), let old = model.operations.values.sorted(by: { $0.operationID < $1.operationID }).first {
            operation = old
        } else {
            operationNumber += 1
            let currency = random.pick(options.catalog.currencies).id
            operation = .spend(Int64(1 + random.below(400)), of: currency, player: random.pick(players), operationID: "op-\(operationNumber)")
        }
        let outcome: OperationOutcome
        do throws(LedgerError) {
            outcome = try await ledger.apply(operation)
        } catch {
            throw violation("spend failed: \(error)")
        }
        let known = model.operations[operation.operationID]
        let affordable = model.amount(of: operation.asset, operation.assetID, for: operation.playerID) >= operation.amount
        switch outcome {
        case .applied:
            guard known == nil, affordable else { throw violation("spend \(operation.operationID) applied wrongly") }
            model.apply(operation)
        case .alreadyApplied:
            guard known == operation else { throw violation("spend \(operation.operationID) claimed applied") }
        case .rejected(let reason, _):
            guard known == nil, reason == .insufficientFunds, !affordable else {
                throw violation("spend \(operation.operationID) rejected as \(reason)")
            }
        }
        note("spend \(operation.operationID) -> \(outcome)")
    }

    func forgeConflict() async throws(SimulationViolation) {
        guard
            let (key, known) = model.fulfilled.sorted(by: { $0.key < $1.key })
                .first(where: { $0.key.store == .test && random.chance(30) })
        else { return }
        let otherProduct = oneTimeProducts.first { $0.id != known.productID }
        let forgeProduct = random.chance(50)
        guard let storeProductID = (forgeProduct ? otherProduct : options.catalog.product(id: known.productID))?
            .storeProductIDs[.test]
        else { return }
        let forged = TestStoreTransaction(
            transactionID: key.transactionID, storeProductID: storeProductID,
            playerID: forgeProduct ? known.playerID : "intruder", quantity: known.quantity, purchaseDate: clock.now())
        let ledger = try currentLedger()
        let outcome: FulfillmentOutcome
        do throws(LedgerError) {
            outcome = try await ledger.fulfill(forged.submission())
        } catch {
            throw violation("forged \(key) failed: \(error)")
        }
        let expected: RejectionReason = forgeProduct ? .conflictProduct : .ownedByAnotherPlayer
        guard outcome.rejection?.reason == expected else { throw violation("forged \(key) gave \(outcome)") }
        note("forge \(key.transactionID) -> \(expected)")
    }

    /// Recovery without faults: afterwards nothing the model holds is left unfinished.
    func recover(after reason: String) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let report: RecoveryReport
        do throws(LedgerError) {
            report = try await ledger.recover()
        } catch {
            throw violation("recover failed: \(error)")
        }
        for (key, outcome) in report.resubmitted.sorted(by: { $0.key < $1.key }) {
            let submission = deliveries.first { $0.submission.key == key && $0.document.state == .purchased }?.submission
                ?? platform.submission(key.transactionID)
            if let submission { try checkResubmitted(outcome, submission: submission) }
        }
        guard report.isClean else { throw violation("recovery after \(reason) was not clean: \(report)") }
        let pendingCount = try await pendingFinishCount(ledger)
        guard pendingCount == 0 else { throw violation("\(pendingCount) finishes still pending after recovery") }
        for key in model.fulfilled.keys where key.store == .test && !platform.isFinished(key.transactionID) {
            throw violation("\(key) fulfilled but never finished after recovery")
        }
        note("\(reason) -> \(report.finishesSucceeded.count) finished, \(report.resubmitted.count) resubmitted")
    }

    private func checkResubmitted(_ outcome: FulfillmentOutcome, submission: TransactionSubmission) throws(SimulationViolation) {
        if deliveries.first(where: { $0.submission == submission }) == nil { remember(submission) }
        switch outcome {
        case .granted(let receipt):
            guard model.fulfilled[submission.key] == nil, let product = options.catalog.product(id: receipt.record.productID)
            else { throw violation("recovery granted \(submission.key) twice") }
            model.grant(
                product, quantity: receipt.record.quantity, to: receipt.record.playerID, key: submission.key,
                purchaseDate: receipt.record.purchaseDate, fulfilledAt: receipt.record.fulfilledAt)
            summary.grants += 1
        case .alreadyFulfilled:
            guard model.fulfilled[submission.key] != nil else { throw violation("recovery: \(submission.key) unknown") }
        case .rejected(let rejection):
            guard rejection.reason == .pending || rejection.reason == .cancelled else {
                throw violation("recovery rejected \(submission.key): \(rejection)")
            }
        }
    }

    func checkEligibility() async throws(SimulationViolation) {
        let limited = options.catalog.products.filter { $0.limit != nil || $0.kind == .nonConsumable }
        guard !limited.isEmpty else { return }
        let product = random.pick(limited)
        let player = random.pick(players)
        let ledger = try currentLedger()
        let eligibility: Eligibility
        do throws(LedgerError) {
            eligibility = try await ledger.eligibility(playerID: player, productID: product.id)
        } catch {
            throw violation("eligibility failed: \(error)")
        }
        // A non-consumable is owned once bought, or when all it grants is entitlements the player owns.
        let bought = model.fulfilled.values.contains { $0.playerID == player && $0.productID == product.id && $0.isInForce }
        let owned = model.entitlements(of: player, catalog: options.catalog)
        let onlyOwnedEntitlements = product.rewards.lines.allSatisfy { $0.kind == .entitlement && owned.contains($0.id) }
        let ownsAll = product.kind == .nonConsumable && (bought || onlyOwnedEntitlements)
        var expectedReached = false
        if let limit = product.limit {
            let period = PurchasePeriod.key(for: limit.period, at: clock.now())
            expectedReached = model.purchaseCounts[SimulationModel.countKey(player, product.id, period), default: 0] >= limit.count
        }
        let consistent: Bool
        switch eligibility {
        case .alreadyOwned: consistent = ownsAll
        case .limitReached: consistent = !ownsAll && expectedReached
        case .eligible: consistent = !ownsAll && !expectedReached
        case .unknownProduct, .invalidQuantity: consistent = false
        }
        guard consistent else { throw violation("eligibility of \(product.id) for \(player) is \(eligibility)") }
        note("eligibility \(product.id) \(player) -> \(eligibility)")
    }

    /// After every step: every player's holdings equal the model's, and the ledger holds
    /// exactly the transactions the model saw granted.
    func checkInvariants() async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let subscriptionIDs = Set(options.catalog.products.filter { $0.kind == .autoRenewable }.map(\.id))
        let snapshots: [PlayerSnapshot]
        let recorded: Int
        do throws(LedgerError) {
            var read: [PlayerSnapshot] = []
            for player in players { read.append(try await ledger.player(player)) }
            snapshots = read
            recorded = try await ledger.store.read { reader throws(LedgerError) in
                // Subscription periods are checked by the subscription invariants.
                try reader.saleCountsByProduct(limit: 10_000).filter { !subscriptionIDs.contains($0.key) }.values.reduce(0, +)
            }
        } catch {
            throw violation("cannot read the ledger: \(error)")
        }
        for snapshot in snapshots {
            let expected = model.normalized(snapshot.playerID)
            guard snapshot.balances == expected.balances, snapshot.inventory == expected.inventory,
                Set(snapshot.entitlements.map(\.entitlementID)) == model.entitlements(of: snapshot.playerID, catalog: options.catalog)
            else {
                throw violation(
                    "\(snapshot.playerID) holds \(snapshot.balances) \(snapshot.inventory); the model says \(expected.balances) \(expected.inventory)")
            }
        }
        for player in players { try await checkEntitlementPayments(ledger, player: player) }
        guard recorded == model.fulfilled.count else {
            throw violation("the ledger holds \(recorded) transactions; the model granted \(model.fulfilled.count)")
        }
    }

    func pendingFinishCount(_ ledger: Ledger) async throws(SimulationViolation) -> Int {
        do throws(LedgerError) {
            return try await ledger.store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10_000).count }
        } catch {
            throw violation("cannot read the outbox: \(error)")
        }
    }

    /// End of run: recover, check every purchase was granted exactly once, then integrity.
    func finishRun() async throws(SimulationViolation) {
        step = options.stepCount
        // The App Store client redelivers what it still holds unfinished (StoreKit's unfinished queue).
        for (submission, document) in deliveries
        where document.store != .test && model.fulfilled[purchaseKey(of: submission.key)] == nil {
            try await deliver(submission, faultsAllowed: false)
        }
        try await steamFinishRun()
        try await recover(after: "end")
        try await checkInvariants()
        try await checkSubscriptionInvariants()
        for (submission, document) in deliveries where document.state == .purchased {
            if document.store != .test {
                // A rental or pre-order is refused every time (checked as each delivery was).
                if refusedOfferKeys.contains(submission.key) { continue }
                guard model.fulfilled[purchaseKey(of: submission.key)] != nil else {
                    throw violation("\(document.store) purchase \(submission.key) was never granted")
                }
                continue
            }
            guard platform.submission(submission.transactionID).map({ _ in true }) == true else { continue }
            let current = platform.submission(submission.transactionID)
            if current == submission, model.fulfilled[submission.key] == nil {
                throw violation("purchased \(submission.key) was never granted")
            }
        }
        await closeLedger()
        if let problem = await options.databases.integrityCheck(databaseLocation) { throw violation("integrity check: \(problem)") }
    }
}
