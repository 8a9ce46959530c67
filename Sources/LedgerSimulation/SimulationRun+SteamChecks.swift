import Foundation
import FulfillmentLedger
import SteamAdapter

/// The Steam traffic's checks against the model: each outcome of the order processor, what a
/// report sync granted and took back, and after every Steam step what the ledger holds of each
/// order.
extension SimulationRun {
    /// A processor's outcome for order `index`, as where the order stands at Steam says it must
    /// be: refused by FinalizeTxn with `code`, or else submitted with Steam's status.
    func expectSteam(
        _ outcome: SteamOrderOutcome, order index: Int, refusedWith code: Int?, lostOutcomes: Bool, faulted: Bool
    ) throws(SimulationViolation) {
        let order = steamTraffic.orders[index]
        switch outcome {
        case .refused(let failure, let outcomes) where failure.code == code:
            try expectSteamItems(outcomes, order: index, lostOutcomes: lostOutcomes, faulted: faulted)
        case .submitted(let orderID, let status, let outcomes) where code == nil && orderID == order.orderID:
            let expected: Bool
            switch order.stage {
            case .charged: expected = status.wasCharged
            case .declined: expected = status == .failed
            case .approved: expected = status == .approved
            case .initialized: expected = status == .initialized
            }
            guard expected else { throw violation("Steam order \(orderID) (\(order.stage.rawValue)) was submitted as \(status.rawValue)") }
            try expectSteamItems(outcomes, order: index, lostOutcomes: lostOutcomes, faulted: faulted)
        default:
            let expected = code.map { "refusal \($0)" } ?? "submitted"
            throw violation("Steam order \(order.orderID) (\(order.stage.rawValue)) gave \(outcome.name), expected \(expected)")
        }
    }

    /// Each item's outcome: granted once, and only when Steam charged the order; pending while the
    /// player or the server has not answered; cancelled when declined. `alreadyFulfilled` for an
    /// item the model never saw granted is allowed only after a failed attempt, which granted it.
    func expectSteamItems(
        _ outcomes: [FulfillmentOutcome], order index: Int, lostOutcomes: Bool, faulted: Bool
    ) throws(SimulationViolation) {
        let order = steamTraffic.orders[index]
        guard outcomes.count == order.lines.count else {
            throw violation("Steam order \(order.orderID) of \(order.lines.count) items gave \(outcomes.count) outcomes")
        }
        for ((line, key), fulfillment) in zip(zip(order.lines, order.keys), outcomes) {
            switch fulfillment {
            case .granted(let receipt):
                guard order.stage == .charged, model.fulfilled[key] == nil else {
                    let twice = model.fulfilled[key] == nil ? "" : " twice"
                    throw violation("\(key) was granted\(twice); Steam holds its order \(order.stage.rawValue)")
                }
                guard receipt.finished || faulted else { throw violation("\(key) left unfinished without a fault") }
                try grantSteam(receipt.record, key: key, line: line, order: order)
            case .alreadyFulfilled(let receipt):
                guard order.stage == .charged, receipt.record.playerID == order.player else {
                    throw violation(
                        "\(key) reported alreadyFulfilled for \(receipt.record.playerID); Steam holds its order \(order.stage.rawValue)")
                }
                guard model.fulfilled[key] == nil else { continue }
                guard lostOutcomes else { throw violation("\(key) reported alreadyFulfilled but the model never saw it granted") }
                try grantSteam(receipt.record, key: key, line: line, order: order)
            case .rejected(let rejection):
                let expected: RejectionReason? = order.stage == .declined ? .cancelled : order.stage == .charged ? nil : .pending
                guard rejection.reason == expected, model.fulfilled[key] == nil else {
                    throw violation("\(key) was rejected (\(rejection)); Steam holds its order \(order.stage.rawValue)")
                }
            }
        }
    }

    /// The model grants what the ledger recorded for `key`, once it is the order's line, to its player.
    private func grantSteam(
        _ record: TransactionRecord, key: TransactionKey, line: SteamTraffic.Line, order: SteamTraffic.Order
    ) throws(SimulationViolation) {
        guard record.key == key, record.playerID == order.player, record.productID == line.product.id, record.quantity == line.quantity
        else {
            throw violation(
                "\(key) was granted as \(record.productID) x\(record.quantity) to \(record.playerID), "
                    + "not \(line.product.id) x\(line.quantity) to \(order.player)")
        }
        model.grant(
            line.product, quantity: line.quantity, to: order.player, key: key, purchaseDate: record.purchaseDate,
            fulfilledAt: record.fulfilledAt)
        summary.grants += 1
    }

    /// After a sync: every item Steam charged is granted and every item it took back is taken
    /// back once, in the order the report lists them (by last update), each checked against the
    /// model; the report counts exactly those, or at most those when a failed attempt did some.
    func expectSynced(_ report: SteamReportSyncReport, reason: String, retried: Bool) async throws(SimulationViolation) {
        var granted = 0
        var takenBack = 0
        let pending = steamTraffic.indices(at: .charged).sorted { steamTraffic.orders[$0].lastChange < steamTraffic.orders[$1].lastChange }
        for index in pending {
            let order = steamTraffic.orders[index]
            for (line, key) in zip(order.lines, order.keys) where model.fulfilled[key] == nil {
                guard let record = try await steamRead({ reader throws(LedgerError) in try reader.transaction(key) }) else {
                    throw violation("Steam charged \(key); the sync after \(reason) did not grant it")
                }
                try grantSteam(record, key: key, line: line, order: order)
                granted += 1
            }
            for (line, key) in zip(order.lines, order.keys) where !order.takeBacksApplied.contains(line.itemID) {
                guard let status = order.takenBack[line.itemID] else { continue }
                let eventID = "steam:\(key.transactionID):\(status.rawValue)"
                guard let record = try await steamRead({ reader throws(LedgerError) in try reader.revocationEvent(id: eventID) }) else {
                    throw violation("Steam took back \(key) (\(status.rawValue)); the sync after \(reason) did not")
                }
                let units = model.fulfilled[key].map { $0.quantity - $0.refundedUnits } ?? 0
                try apply(record, to: key, units: units, revoke: false)
                steamTraffic.orders[index].takeBacksApplied.insert(line.itemID)
                takenBack += 1
            }
        }
        summary.steamRecoveredGrants += granted
        guard report.rejected.isEmpty, report.revocationsRejected.isEmpty, report.unassigned.isEmpty, report.skipped == 0,
            !report.truncated
        else { throw violation("the Steam sync after \(reason) reported problems: \(report)") }
        let counted = retried
            ? report.granted <= granted && report.revocationsRecorded <= takenBack
            : report.granted == granted && report.revocationsRecorded == takenBack
        guard counted else {
            throw violation(
                "the Steam sync after \(reason) granted \(report.granted) and took back \(report.revocationsRecorded); "
                    + "the model \(granted) and \(takenBack)")
        }
        note("steam sync after \(reason): \(granted) granted, \(takenBack) taken back")
    }

    /// After every Steam step: the ledger holds exactly the items the model granted (none of an
    /// order Steam has not charged), and exactly one take-back of each item the model took back.
    func checkSteamOrders() async throws(SimulationViolation) {
        for order in steamTraffic.orders {
            for (line, key) in zip(order.lines, order.keys) {
                let held = try await steamRead { reader throws(LedgerError) in try reader.transaction(key) } != nil
                let granted = model.fulfilled[key] != nil
                guard held == granted, !granted || order.stage == .charged else {
                    throw violation(
                        "the ledger \(held ? "holds" : "lacks") \(key), whose order Steam holds \(order.stage.rawValue); "
                            + "the model \(granted ? "granted" : "did not grant") it")
                }
                let takeBacks = try await steamRead { reader throws(LedgerError) in try reader.revocationEvents(for: key, limit: 10) }.count
                let applied = order.takeBacksApplied.contains(line.itemID) ? 1 : 0
                guard takeBacks == applied else {
                    throw violation("the ledger holds \(takeBacks) take-backs of \(key); the model applied \(applied)")
                }
            }
        }
    }

    /// End of run: a sync without faults, after which every item Steam charged is granted and
    /// every take-back applied.
    func steamFinishRun() async throws(SimulationViolation) {
        try await steamSync(after: "end", faultsAllowed: false)
        for order in steamTraffic.orders where order.stage == .charged && order.takeBacksApplied.count != order.takenBack.count {
            throw violation("Steam took back \(order.takenBack.count) items of \(order.orderID); the ledger \(order.takeBacksApplied.count)")
        }
        try await checkSteamOrders()
    }

    /// A read of the run's ledger.
    private func steamRead<Value: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> Value
    ) async throws(SimulationViolation) -> Value {
        let ledger = try currentLedger()
        do throws(LedgerError) {
            return try await ledger.store.read(body)
        } catch {
            throw violation("cannot read the ledger: \(error)")
        }
    }
}
