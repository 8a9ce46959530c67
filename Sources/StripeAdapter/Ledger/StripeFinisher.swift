import FulfillmentLedger

/// The finish port for Stripe: a no-op. Stripe has nothing to finish. A Checkout Session is
/// settled when it is paid, and Stripe never takes back a payment the merchant does not
/// acknowledge, unlike Google Play (three days) or StoreKit (redelivery until finished). The
/// webhook's 2xx answer is all Stripe waits for, and `StripeWebhookProcessor` gives it only once
/// the grant is durable.
public struct StripeFinisher: PlatformFinisher {
    /// The no-op finisher.
    public init() {}

    /// Succeeds at once.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {}
}
