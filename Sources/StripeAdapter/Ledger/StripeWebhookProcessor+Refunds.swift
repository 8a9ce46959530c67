import Foundation
import FulfillmentLedger

/// Refunds and disputes: confirmed with Stripe's API, mapped to the line items of the charge's
/// Checkout Session, applied through the ledger's revocations (each once, by an event ID made
/// of the Stripe event's ID and the line item).
extension StripeWebhookProcessor {
    /// `charge.refunded` or `refund.updated` about `chargeID`: the charge's cumulative refund,
    /// as Stripe holds it now, taken back unit by unit.
    func refunds(_ event: StripeEvent, chargeID: String) async throws(LedgerError) -> StripeWebhookOutcome {
        guard let (charge, session) = try await chargeAndSession(chargeID) else {
            return .rejected("Stripe has no charge \(chargeID)")
        }
        guard let session else {
            try await record(event, transaction: nil, outcome: "not a Checkout payment \(chargeID)")
            return .nothingToDo(type: event.type)
        }
        let date = Self.date(event)
        let outcomes = try await applyRefunds(
            of: charge, session: session, eventID: event.id, date: date, reason: "stripe \(event.type)")
        try await record(event, transaction: outcomes.first?.record?.purchase, outcome: Self.summary(outcomes))
        return .revocations(chargeID: charge.id, outcomes: outcomes)
    }

    /// A dispute's funds withdrawn (every line item taken back) or reinstated (given back, then
    /// the charge's refunds applied again).
    func dispute(_ event: StripeEvent, disputeID: String, withdrawn: Bool) async throws(LedgerError) -> StripeWebhookOutcome {
        let dispute: StripeDispute
        do {
            guard let found = try await api.dispute(id: disputeID) else { return .rejected("Stripe has no dispute \(disputeID)") }
            dispute = found
        } catch {
            throw LedgerError.verifierUnavailable("Stripe: \(error)")
        }
        guard let (charge, session) = try await chargeAndSession(dispute.charge) else {
            return .rejected("Stripe has no charge \(dispute.charge)")
        }
        guard let session else {
            try await record(event, transaction: nil, outcome: "not a Checkout payment \(charge.id)")
            return .nothingToDo(type: event.type)
        }
        let date = Self.date(event)
        var outcomes: [RevocationOutcome] = []
        for line in session.lineItems?.data ?? [] {
            let revocation = RevocationEvent(
                eventID: "stripe:\(event.id):\(line.id)", store: .stripe,
                transactionID: StripeCheckoutVerifier.key(session: session.id, lineItem: line.id),
                kind: withdrawn ? .fullRefund : .refundReversed, eventDate: date,
                reason: "stripe dispute \(dispute.reason ?? "") \(dispute.status)")
            outcomes.append(try await ledger.applyRevocation(revocation))
        }
        if !withdrawn {
            // A reversal gives back every take-back; what the charge has refunded stays refunded.
            outcomes += try await applyRefunds(
                of: charge, session: session, eventID: "\(event.id):refunds", date: date.addingTimeInterval(0.001),
                reason: "stripe refunds after dispute \(dispute.id)")
        }
        try await record(event, transaction: outcomes.first?.record?.purchase, outcome: Self.summary(outcomes))
        return .revocations(chargeID: charge.id, outcomes: outcomes)
    }

    /// The charge's cumulative refund as cumulative revocations of the session's line items.
    private func applyRefunds(
        of charge: StripeCharge, session: StripeCheckoutSession, eventID: String, date: Date, reason: String
    ) async throws(LedgerError) -> [RevocationOutcome] {
        var outcomes: [RevocationOutcome] = []
        for line in StripeRefundMapping.units(amountRefunded: charge.amountRefunded, of: session.lineItems?.data ?? [])
        where line.units > 0 {
            let full = line.units == line.quantity
            let revocation = RevocationEvent(
                eventID: "stripe:\(eventID):\(line.lineItemID)", store: .stripe,
                transactionID: StripeCheckoutVerifier.key(session: session.id, lineItem: line.lineItemID),
                kind: full ? .fullRefund : .partialRefund, quantity: full ? nil : line.units, quantityIsCumulative: !full,
                eventDate: date, reason: "\(reason): \(charge.amountRefunded) of \(charge.amount) \(charge.currency) refunded")
            outcomes.append(try await ledger.applyRevocation(revocation))
        }
        return outcomes
    }

    /// The charge as Stripe holds it now and the Checkout Session it paid for, with its line
    /// items (nil when the charge was not a Checkout payment); nil when Stripe has no such charge.
    private func chargeAndSession(_ chargeID: String) async throws(LedgerError)
        -> (StripeCharge, StripeCheckoutSession?)?
    {
        do {
            guard let charge = try await api.charge(id: chargeID) else { return nil }
            guard let paymentIntent = charge.paymentIntent else { return (charge, nil) }
            let sessions = try await api.checkoutSessions(paymentIntent: paymentIntent)
            guard let paid = sessions.first(where: { StripeCheckoutVerifier.state($0) == .purchased }) else { return (charge, nil) }
            return (charge, try await api.checkoutSession(id: paid.id))
        } catch {
            throw LedgerError.verifierUnavailable("Stripe: \(error)")
        }
    }

    /// When Stripe created the event: the order of take-backs and reversals.
    static func date(_ event: StripeEvent) -> Date {
        let seconds = min(max(0, event.created), Date.ledgerMillisecondsRange.upperBound / 1_000)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// What revocations did, for the record: each disposition, or rejection reason.
    static func summary(_ outcomes: [RevocationOutcome]) -> String {
        let parts = outcomes.map { outcome in
            switch outcome {
            case .recorded(let record): record.disposition.rawValue
            case .alreadyRecorded: "alreadyRecorded"
            case .rejected(let rejection): "rejected \(rejection.reason)"
            }
        }
        return "revocations " + (parts.isEmpty ? "none" : parts.joined(separator: ","))
    }
}
