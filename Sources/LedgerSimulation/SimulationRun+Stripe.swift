import Foundation
import FulfillmentLedger
import StripeAdapter
import StripeSimulator

/// The Stripe web shop's traffic: Checkout Sessions of one or two lines, paid at once or by a
/// delayed payment that later succeeds or fails, webhooks redelivered, partial and full refunds,
/// disputes lost and won. Every choice comes from `stripeRandom`, so the other traffic of a seed
/// draws as before. Invariants: each paid line item granted once to the session's player, a
/// redelivered event a duplicate, a refund taking back exactly the units its cumulative amount
/// pays for, a lost dispute everything left, a won one giving it back but what stays refunded;
/// the balances are checked against the model after every step, as for every store.
extension SimulationRun {
    /// Percent of steps that also carry a Stripe event.
    static let stripeStepPercent = 8

    func stripeStep() async throws(SimulationViolation) {
        guard stripeRandom.chance(Self.stripeStepPercent) else { return }
        let roll = stripeRandom.below(100)
        switch roll {
        case 0..<45: try await stripePurchase()
        case 45..<55: try await stripeRedeliver()
        case 55..<65: try await stripeSettleDelayed()
        case 65..<80: try await stripeRefund()
        case 80..<85: try await stripeRefundUpdated()
        case 85..<93: try await stripeDispute()
        default: try await stripeWinDispute()
        }
    }

    /// Delivers a webhook as Stripe does: again after a failure (Stripe retries), at most twice.
    private func deliverStripe(_ webhook: StripeSimulator.Webhook) async throws(SimulationViolation) -> StripeWebhookOutcome {
        guard let authenticator = stripeTraffic.authenticator else { throw violation("no Stripe authenticator") }
        let processor = StripeWebhookProcessor(api: stripeTraffic.api, ledger: try currentLedger(), authenticator: authenticator)
        var lastError: LedgerError?
        for _ in 0..<2 {
            do throws(LedgerError) {
                let outcome = try await processor.process(signatureHeader: webhook.signatureHeader, body: webhook.body)
                stripeTraffic.keep(webhook)
                return outcome
            } catch {
                lastError = error
                note("stripe \(webhook.eventID) failed: \(error.code)")
            }
        }
        throw violation("Stripe event \(webhook.eventID) failed twice: \(String(describing: lastError))")
    }

    private func stripePurchase() async throws(SimulationViolation) {
        let products = oneTimeProducts.filter { $0.storeProductIDs[.stripe] != nil }
        guard !products.isEmpty else { return }
        let player = stripeRandom.pick(players)
        var lines: [StripeTraffic.Line] = []
        for _ in 0..<(1 + stripeRandom.below(2)) {
            let product = stripeRandom.pick(products)
            let quantity = product.kind == .consumable ? 1 + stripeRandom.below(3) : 1
            lines.append(StripeTraffic.Line(product: product, quantity: quantity, unitAmount: Int64(100 * (1 + stripeRandom.below(9)))))
        }
        let delayed = stripeRandom.chance(15)
        stripeTraffic.tick(after: clock.now())
        let (sessionID, webhook) = stripeTraffic.account.checkout(
            player: player,
            lines: lines.map {
                StripeSimulator.Line(price: SimulationCatalog.stripePrice(of: $0.product), quantity: $0.quantity, unitAmount: $0.unitAmount)
            },
            delayed: delayed)
        stripeTraffic.sessions.append(StripeTraffic.Session(id: sessionID, player: player, lines: lines, paid: !delayed))
        summary.stripePurchases += 1
        summary.transactions += 1
        note("stripe checkout \(sessionID) \(lines.map { "\($0.product.id) x\($0.quantity)" }) \(delayed ? "delayed" : "paid") for \(player)")
        let outcome = try await deliverStripe(webhook)
        if delayed {
            guard outcome.name == "nothingToDo" else { throw violation("unpaid \(sessionID) was \(outcome.name)") }
        } else {
            try expectGranted(outcome, sessionIndex: stripeTraffic.sessions.count - 1)
        }
        if stripeRandom.chance(15) {
            let again = stripeTraffic.account.redelivery(of: webhook)
            guard case .duplicate = try await deliverStripe(again) else { throw violation("\(webhook.eventID) applied twice") }
        }
    }

    /// A paid session's outcome: each line granted once, to its player, as the model grants it.
    private func expectGranted(_ outcome: StripeWebhookOutcome, sessionIndex: Int) throws(SimulationViolation) {
        let session = stripeTraffic.sessions[sessionIndex]
        guard case .fulfilled(let sessionID, let outcomes) = outcome, sessionID == session.id, outcomes.count == session.lines.count
        else { throw violation("paid \(session.id) was \(outcome.name)") }
        var keys: [TransactionKey] = []
        for (line, fulfillment) in zip(session.lines, outcomes) {
            guard case .granted(let receipt) = fulfillment, receipt.record.playerID == session.player,
                receipt.record.productID == line.product.id, receipt.record.quantity == line.quantity,
                model.fulfilled[receipt.record.key] == nil
            else { throw violation("a line of \(session.id) was \(fulfillment), not granted once to \(session.player)") }
            model.grant(
                line.product, quantity: line.quantity, to: session.player, key: receipt.record.key,
                purchaseDate: receipt.record.purchaseDate, fulfilledAt: receipt.record.fulfilledAt)
            summary.grants += 1
            keys.append(receipt.record.key)
        }
        stripeTraffic.sessions[sessionIndex].keys = keys
        stripeTraffic.sessions[sessionIndex].paid = true
    }

    private func stripeRedeliver() async throws(SimulationViolation) {
        guard !stripeTraffic.delivered.isEmpty else { return }
        stripeTraffic.tick(after: clock.now())
        let webhook = stripeTraffic.account.redelivery(of: stripeRandom.pick(stripeTraffic.delivered))
        let outcome = try await deliverStripe(webhook)
        guard case .duplicate = outcome else { throw violation("\(webhook.eventID) applied twice: \(outcome)") }
        note("stripe redeliver \(webhook.eventID)")
    }

    private func stripeSettleDelayed() async throws(SimulationViolation) {
        let waiting = stripeTraffic.sessions.indices.filter {
            !stripeTraffic.sessions[$0].paid && !stripeTraffic.sessions[$0].paymentFailed
        }
        guard !waiting.isEmpty else { return }
        let index = stripeRandom.pick(waiting)
        let sessionID = stripeTraffic.sessions[index].id
        stripeTraffic.tick(after: clock.now())
        if stripeRandom.chance(70), let webhook = stripeTraffic.account.succeedDelayedPayment(sessionID) {
            try expectGranted(try await deliverStripe(webhook), sessionIndex: index)
            note("stripe delayed payment of \(sessionID) succeeded")
        } else if let webhook = stripeTraffic.account.failDelayedPayment(sessionID) {
            guard try await deliverStripe(webhook).name == "nothingToDo" else { throw violation("failed \(sessionID) changed something") }
            stripeTraffic.sessions[index].paymentFailed = true
            note("stripe delayed payment of \(sessionID) failed")
        }
    }

    /// The paid sessions whose charge can be refunded or disputed (no dispute open).
    private func chargeable() -> [(index: Int, charge: String)] {
        stripeTraffic.sessions.indices.compactMap { index in
            let session = stripeTraffic.sessions[index]
            guard session.paid, session.openDispute == nil, let charge = stripeTraffic.account.chargeID(of: session.id) else { return nil }
            return (index, charge)
        }
    }

    private func stripeRefund() async throws(SimulationViolation) {
        let candidates = chargeable()
        guard !candidates.isEmpty else { return }
        let (index, charge) = stripeRandom.pick(candidates)
        let session = stripeTraffic.sessions[index]
        let total = session.lines.reduce(Int64(0)) { $0 + $1.unitAmount * Int64($1.quantity) }
        // A full refund, exactly one unit of a line (a refund the ledger must count once, however
        // often Stripe reports it), or any amount.
        let amount =
            stripeRandom.chance(30)
            ? total : stripeRandom.chance(50) ? stripeRandom.pick(session.lines).unitAmount : Int64(1 + stripeRandom.below(Int(total)))
        stripeTraffic.tick(after: clock.now())
        guard let webhook = stripeTraffic.account.refund(charge, amount: amount), let refunded = refundedCents(charge) else { return }
        try expectRevocations(try await deliverStripe(webhook), session: session)
        takeBackRefunds(session, refunded: refunded, at: stripeTraffic.clock.now())
        summary.stripeRefunds += 1
        note("stripe refund \(charge) \(amount) (now \(refunded) of \(total))")
    }

    /// Stripe reports a refund again (`refund.updated`): the cumulative amount is unchanged, so
    /// nothing more is taken back.
    private func stripeRefundUpdated() async throws(SimulationViolation) {
        let candidates = chargeable().filter { (refundedCents($0.charge) ?? 0) > 0 }
        guard !candidates.isEmpty else { return }
        let (index, charge) = stripeRandom.pick(candidates)
        stripeTraffic.tick(after: clock.now())
        guard let webhook = stripeTraffic.account.refundUpdated(charge) else { return }
        try expectRevocations(try await deliverStripe(webhook), session: stripeTraffic.sessions[index])
        note("stripe refund.updated \(charge)")
    }

    private func stripeDispute() async throws(SimulationViolation) {
        let candidates = chargeable().filter { !stripeTraffic.sessions[$0.index].disputed }
        guard !candidates.isEmpty else { return }
        // Half the time a charge already refunded in part: a dispute won later must leave its refund.
        let refunded = candidates.filter { (refundedCents($0.charge) ?? 0) > 0 }
        let (index, charge) = stripeRandom.pick(!refunded.isEmpty && stripeRandom.chance(50) ? refunded : candidates)
        stripeTraffic.tick(after: clock.now())
        guard let (disputeID, webhook) = stripeTraffic.account.dispute(charge) else { return }
        let session = stripeTraffic.sessions[index]
        try expectRevocations(try await deliverStripe(webhook), session: session)
        for (key, line) in zip(session.keys, session.lines) {
            guard let purchase = model.fulfilled[key], purchase.isInForce else { continue }
            _ = model.takeBack(
                key, units: line.quantity - purchase.refundedUnits, revoke: false, eventID: webhook.eventID,
                catalog: options.catalog, at: stripeTraffic.clock.now())
        }
        stripeTraffic.sessions[index].openDispute = disputeID
        stripeTraffic.sessions[index].disputed = true
        summary.stripeDisputes += 1
        note("stripe dispute \(disputeID) of \(charge)")
    }

    private func stripeWinDispute() async throws(SimulationViolation) {
        let open = stripeTraffic.sessions.indices.filter { stripeTraffic.sessions[$0].openDispute != nil }
        guard !open.isEmpty else { return }
        let index = stripeRandom.pick(open)
        let session = stripeTraffic.sessions[index]
        guard let disputeID = session.openDispute, let charge = stripeTraffic.account.chargeID(of: session.id) else { return }
        stripeTraffic.tick(after: clock.now())
        guard let webhook = stripeTraffic.account.winDispute(disputeID), let refunded = refundedCents(charge) else { return }
        try expectRevocations(try await deliverStripe(webhook), session: session)
        let date = stripeTraffic.clock.now()
        for key in session.keys where !(model.fulfilled[key]?.takeBacks.isEmpty ?? true) {
            _ = model.reverse(key, at: date)
        }
        takeBackRefunds(session, refunded: refunded, at: date.addingTimeInterval(0.001))
        stripeTraffic.sessions[index].openDispute = nil
        note("stripe won dispute \(disputeID)")
    }

    /// The charge's cumulative refund, as the account holds it.
    private func refundedCents(_ chargeID: String) -> Int64? {
        guard let object = stripeTraffic.account.chargeObject(chargeID) else { return nil }
        return object.refunded
    }

    /// Takes back, line by line, the units `refunded` cents pay for beyond what the model took.
    private func takeBackRefunds(_ session: StripeTraffic.Session, refunded: Int64, at date: Date) {
        for (key, units) in zip(session.keys, StripeTraffic.refundedUnits(refunded, lines: session.lines)) {
            guard let purchase = model.fulfilled[key], units > purchase.refundedUnits, purchase.isInForce else { continue }
            _ = model.takeBack(
                key, units: units - purchase.refundedUnits, revoke: false, eventID: "stripe", catalog: options.catalog, at: date)
        }
    }

    /// A refund or dispute's outcome: revocations of the session's line items, none rejected.
    private func expectRevocations(_ outcome: StripeWebhookOutcome, session: StripeTraffic.Session) throws(SimulationViolation) {
        guard case .revocations(_, let outcomes) = outcome else { throw violation("\(session.id)'s refund was \(outcome.name)") }
        for revocation in outcomes where revocation.record == nil {
            throw violation("a revocation of \(session.id) was rejected: \(revocation)")
        }
    }
}
