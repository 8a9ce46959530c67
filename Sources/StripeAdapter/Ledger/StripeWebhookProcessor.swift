import Foundation
import FulfillmentLedger

/// Applies Stripe webhooks to the ledger: authenticated by their signature, applied once by the
/// event's ID, and confirmed with Stripe's API before anything is granted.
///
/// - `checkout.session.completed` and `checkout.session.async_payment_succeeded`: the session is
///   read again from the API with its line items; when paid, each line item goes through the
///   pipeline (`StripeCheckoutVerifier` checks it once more), to the player the game set on the
///   session (`client_reference_id`, else `metadata["playerID"]`). A session with neither is
///   recorded `unassigned`, never granted to a guess. Unpaid (a delayed payment still running),
///   it grants nothing: the `async_payment_succeeded` that follows does.
/// - `checkout.session.async_payment_failed` and `checkout.session.expired`, and every type the
///   ledger does not act on: recorded, nothing granted.
/// - refunds (`charge.refunded`, `refund.updated`): the charge is read again for its cumulative
///   `amount_refunded`, its Checkout Session found by the PaymentIntent, and each line item's
///   refunded units (`StripeRefundMapping`) applied as a cumulative partial or full refund;
/// - disputes: `charge.dispute.funds_withdrawn` takes every line item back (a full refund),
///   `charge.dispute.funds_reinstated` gives it back (a reversal), then applies again what the
///   charge has refunded; the dispute is read again first.
///
/// An outage of the store or of Stripe's API throws, and nothing is recorded: answer 5xx, and
/// Stripe delivers the event again (it retries for up to three days, in no particular order).
public struct StripeWebhookProcessor: Sendable {
    /// Stripe's API, to confirm sessions.
    public let api: any StripeCheckoutAPI
    /// The ledger.
    public let ledger: Ledger
    /// Checks each webhook's signature.
    public let authenticator: StripeWebhookAuthenticator
    /// The player a session names, from what the game set when it created it.
    public var playerResolver: @Sendable (StripeCheckoutSession) -> String? = { session in
        session.clientReferenceID ?? session.metadata?["playerID"]
    }

    /// A processor of `ledger`'s Stripe webhooks.
    public init(api: any StripeCheckoutAPI, ledger: Ledger, authenticator: StripeWebhookAuthenticator) {
        self.api = api
        self.ledger = ledger
        self.authenticator = authenticator
    }

    /// Processes one webhook: its `Stripe-Signature` header and its raw body.
    public func process(signatureHeader: String?, body: [UInt8]) async throws(LedgerError) -> StripeWebhookOutcome {
        if case .failure(let refusal) = authenticator.authenticate(signatureHeader: signatureHeader, body: body) {
            return .unauthenticated(refusal)
        }
        let event: StripeEvent
        do {
            event = try JSONDecoder().decode(StripeEvent.self, from: Data(body))
        } catch {
            return .rejected("not a Stripe event: \(error)")
        }
        guard !event.id.isEmpty, event.id.utf8.count <= StripeAPIClient.identifierByteCountMax else {
            return .rejected("the event ID is empty or longer than \(StripeAPIClient.identifierByteCountMax) bytes")
        }
        if let seen = try await ledger.storeNotification(id: event.id) { return .duplicate(seen) }
        switch (event.type, event.object) {
        case (.checkoutSessionCompleted, .checkoutSession(let pushed)), (.checkoutSessionAsyncPaymentSucceeded, .checkoutSession(let pushed)):
            return try await checkoutPaid(event, sessionID: pushed.id)
        case (.chargeRefunded, .charge(let charge)):
            return try await refunds(event, chargeID: charge.id)
        case (.refundUpdated, .refund(let refund)):
            guard let chargeID = refund.charge else { return .rejected("refund \(refund.id) names no charge") }
            return try await refunds(event, chargeID: chargeID)
        case (.chargeDisputeFundsWithdrawn, .dispute(let pushed)):
            return try await dispute(event, disputeID: pushed.id, withdrawn: true)
        case (.chargeDisputeFundsReinstated, .dispute(let pushed)):
            return try await dispute(event, disputeID: pushed.id, withdrawn: false)
        case (.chargeRefunded, _), (.refundUpdated, _), (.chargeDisputeFundsWithdrawn, _), (.chargeDisputeFundsReinstated, _):
            return .rejected("a \(event.type) event about another kind of object")
        default:
            try await record(event, transaction: nil, outcome: "nothingToDo")
            return .nothingToDo(type: event.type)
        }
    }

    /// A session Stripe says is done: confirmed with the API, then each line item granted.
    private func checkoutPaid(_ event: StripeEvent, sessionID: String) async throws(LedgerError) -> StripeWebhookOutcome {
        let session: StripeCheckoutSession
        do {
            guard let found = try await api.checkoutSession(id: sessionID) else {
                return .rejected("Stripe has no Checkout Session \(sessionID)")
            }
            session = found
        } catch {
            throw LedgerError.verifierUnavailable("Stripe: \(error)")
        }
        guard StripeCheckoutVerifier.state(session) == .purchased else {
            try await record(event, transaction: nil, outcome: "unpaid \(session.paymentStatus)")
            return .nothingToDo(type: event.type)
        }
        let firstKey = session.lineItems?.data.first.map {
            TransactionKey(store: .stripe, transactionID: StripeCheckoutVerifier.key(session: session.id, lineItem: $0.id))
        }
        guard let playerID = playerResolver(session), !playerID.isEmpty else {
            try await record(event, transaction: firstKey, outcome: "unassigned \(session.id)")
            return .unassigned(sessionID: session.id)
        }
        var outcomes: [FulfillmentOutcome] = []
        for submission in StripeCheckoutVerifier.submissions(for: session, playerID: playerID) {
            outcomes.append(try await ledger.fulfill(submission))
        }
        let summary = outcomes.map(\.name).joined(separator: ",")
        try await record(event, transaction: firstKey, outcome: "fulfilled \(summary)")
        return .fulfilled(sessionID: session.id, outcomes: outcomes)
    }

    /// Records the event as processed, once.
    func record(_ event: StripeEvent, transaction: TransactionKey?, outcome: String) async throws(LedgerError) {
        try await ledger.recordStoreNotification(
            StoreNotificationRecord(
                notificationID: event.id, store: .stripe, type: event.type.rawValue, transaction: transaction,
                receivedAt: ledger.clock.now(), outcome: outcome))
    }
}
