/// The Stripe reads the ledger confirms webhooks with: `StripeAPIClient` in production, a
/// simulated Stripe in tests.
public protocol StripeCheckoutAPI: Sendable {
    /// The Checkout Session `id` with every line item; nil when Stripe has no such session.
    func checkoutSession(id: String) async throws(StripeAPIError) -> StripeCheckoutSession?
    /// The Checkout Sessions of a PaymentIntent.
    func checkoutSessions(paymentIntent: String) async throws(StripeAPIError) -> [StripeCheckoutSession]
    /// The charge `id` as Stripe holds it now; nil when unknown.
    func charge(id: String) async throws(StripeAPIError) -> StripeCharge?
    /// The dispute `id` as Stripe holds it now; nil when unknown.
    func dispute(id: String) async throws(StripeAPIError) -> StripeDispute?
}

extension StripeAPIClient: StripeCheckoutAPI {}
