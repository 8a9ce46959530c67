import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import StripeAdapter
import StripeSimulator

/// The Stripe web shop of a simulation run: a simulated Stripe account on a clock of its own
/// (one second after the last event, never behind the run's clock, so every event is ordered and
/// the run's clock is left alone), the API client the ledger confirms webhooks with, and what
/// was sold, for the model.
final class StripeTraffic {
    /// One line of a session as sold: its catalog product, units and unit price in cents.
    struct Line {
        var product: Product
        var quantity: Int
        var unitAmount: Int64
    }

    /// A session sold: its player, its lines in order, and whether it is paid.
    struct Session {
        var id: String
        var player: String
        var lines: [Line]
        var paid: Bool
        /// Its line items' ledger keys, once paid, in order.
        var keys: [TransactionKey] = []
        /// The dispute open on its charge with its funds withdrawn, if any.
        var openDispute: String?
        /// Whether its charge was disputed once (Stripe allows one dispute per charge).
        var disputed = false
        /// Whether its delayed payment failed: nothing more happens to it.
        var paymentFailed = false
    }

    /// Most webhooks kept for redelivery.
    static let webhookCountMax = 64

    let clock: ManualClock
    let account: StripeSimulator
    let api: StripeAPIClient
    let authenticator: StripeWebhookAuthenticator?
    var sessions: [Session] = []
    var delivered: [StripeSimulator.Webhook] = []

    init() {
        clock = ManualClock()
        account = StripeSimulator(clock: clock)
        let sleep: HTTPRetrySleep = { _ in }
        // The simulated account never fails unasked: one retry.
        api = StripeAPIClient(
            secretKey: account.secretKey, baseURL: URL(string: "https://api.stripe.test")!, transport: account,
            retryPolicy: HTTPRetryPolicy(retryCountMax: 1), clock: clock, sleep: sleep)!
        authenticator = StripeWebhookAuthenticator(secrets: [account.webhookSecret], clock: clock)
    }

    /// Moves the account's clock one second past its last event, and never behind `now`.
    func tick(after now: Date) {
        let next = max(clock.now().addingTimeInterval(1), now)
        clock.advance(seconds: next.timeIntervalSince(clock.now()))
    }

    /// Keeps `webhook` for redelivery, within the limit.
    func keep(_ webhook: StripeSimulator.Webhook) {
        delivered.append(webhook)
        if delivered.count > Self.webhookCountMax { delivered.removeFirst() }
    }

    /// The units of each line the cumulative `refunded` cents pay back, at each line's own unit
    /// price, line by line: the model's own reckoning of Stripe refunds.
    static func refundedUnits(_ refunded: Int64, lines: [Line]) -> [Int] {
        var remaining = refunded
        return lines.map { line in
            let total = line.unitAmount * Int64(line.quantity)
            let units = remaining >= total ? line.quantity : Int(remaining / line.unitAmount)
            remaining -= Int64(units) * line.unitAmount
            return units
        }
    }
}
