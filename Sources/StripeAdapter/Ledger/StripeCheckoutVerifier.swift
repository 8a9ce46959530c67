import Foundation
import FulfillmentLedger

/// The ledger's verifier port for Stripe Checkout: a line item of a Checkout Session becomes
/// verified facts by asking Stripe's API for the session, never from the webhook or a redirect.
///
/// The ledger key of a web-shop purchase is its **line item**: `<session ID>/<line item ID>`
/// (`cs_…/li_…`), the same on every delivery of the webhook; one session of several Prices is
/// several purchases. The Price ID is the store product ID, the line's quantity the quantity,
/// the session's `client_reference_id` the account binding (the player the game set), and the
/// PaymentIntent the order ID, kept on the record so refunds and disputes, which name it, find
/// the purchase.
///
/// State: `payment_status` `paid` (or `no_payment_required`) is purchased; `unpaid` is pending
/// while the session is open or complete (a delayed payment method), cancelled once it expired;
/// another value is kept as `stripePaymentStatus:<value>` and grants nothing. A session not in
/// `payment` mode is reported with the store product type `stripeMode:<mode>`, which the ledger
/// does not fulfil. Live mode is production, test mode sandbox.
public struct StripeCheckoutVerifier: TransactionVerifier {
    /// What separates the session ID and the line item ID in a ledger key.
    public static let keySeparator: Character = "/"
    /// Most units of one line item.
    public static let quantityMax = 10_000

    /// Stripe's API.
    public let api: any StripeCheckoutAPI
    /// The environments this verifier vouches for: one, as the API key is live or test.
    public let environment: StoreEnvironment

    /// A verifier asking `api`, whose key is for `environment` (`.production` for a live key).
    public init(api: any StripeCheckoutAPI, environment: StoreEnvironment) {
        self.api = api
        self.environment = environment
    }

    /// The configured environment only.
    public var supportedEnvironments: Set<StoreEnvironment> { [environment] }

    /// Looks the submission's session up and checks its line item.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        guard let (sessionID, lineItemID) = Self.parse(submission.transactionID) else {
            return .invalid(reason: "\(submission.transactionID) is not <Checkout Session ID>/<line item ID>")
        }
        let session: StripeCheckoutSession
        do {
            guard let found = try await api.checkoutSession(id: sessionID) else {
                return .invalid(reason: "Stripe has no Checkout Session \(sessionID)")
            }
            session = found
        } catch {
            throw LedgerError.verifierUnavailable("Stripe: \(error)")
        }
        guard let line = session.lineItems?.data.first(where: { $0.id == lineItemID }) else {
            return .invalid(reason: "Checkout Session \(sessionID) has no line item \(lineItemID)")
        }
        return Self.facts(session, line: line)
    }

    /// The verified facts of `line` of `session`.
    static func facts(_ session: StripeCheckoutSession, line: StripeLineItem) -> VerificationResult {
        let quantity = line.quantity ?? 1
        guard (1...quantityMax).contains(quantity) else {
            return .invalid(reason: "line item \(line.id) has quantity \(quantity), outside 1...\(quantityMax)")
        }
        guard (0...Date.ledgerMillisecondsRange.upperBound / 1_000).contains(session.created) else {
            return .invalid(reason: "Checkout Session \(session.id) was created at \(session.created), out of range")
        }
        var verified = VerifiedTransaction(
            store: .stripe, transactionID: key(session: session.id, lineItem: line.id), storeProductID: line.priceID,
            accountBinding: session.clientReferenceID, quantity: quantity, state: state(session),
            environment: session.livemode ? .production : .sandbox,
            purchaseDate: Date(timeIntervalSince1970: TimeInterval(session.created)), orderID: session.paymentIntent)
        if session.mode != "payment" { verified.storeProductType = StoreProductType(rawValue: "stripeMode:\(session.mode)") }
        return .verified(verified)
    }

    /// The purchase state of a session, by its `payment_status` and `status`.
    static func state(_ session: StripeCheckoutSession) -> PurchaseState {
        switch session.paymentStatus {
        case StripeCheckoutSession.paid, "no_payment_required": .purchased
        case "unpaid": session.status == "expired" ? .cancelled : .pending
        default: PurchaseState(rawValue: "stripePaymentStatus:\(session.paymentStatus)")
        }
    }

    /// The ledger key of a line item of a session.
    public static func key(session sessionID: String, lineItem lineItemID: String) -> String {
        "\(sessionID)\(keySeparator)\(lineItemID)"
    }

    /// The session and line item IDs of a ledger key; nil when it is not one.
    public static func parse(_ key: String) -> (session: String, lineItem: String)? {
        let parts = key.split(separator: keySeparator, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// One submission per line item of `session`, for `playerID`: what a paid webhook grants.
    public static func submissions(for session: StripeCheckoutSession, playerID: String) -> [TransactionSubmission] {
        (session.lineItems?.data ?? []).map { line in
            let key = key(session: session.id, lineItem: line.id)
            return TransactionSubmission(
                store: .stripe, transactionID: key, storeProductID: line.priceID, playerID: playerID,
                quantity: line.quantity ?? 1, payload: session.id)
        }
    }
}
