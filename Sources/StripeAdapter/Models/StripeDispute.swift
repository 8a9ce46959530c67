/// A Stripe dispute (`dispute`): a chargeback the cardholder opened.
public struct StripeDispute: Decodable, Sendable, Hashable {
    /// `dp_…`.
    public var id: String
    /// The disputed amount, in the smallest unit.
    public var amount: Int64
    /// The disputed charge (`ch_…`).
    public var charge: String
    /// The PaymentIntent disputed (`pi_…`).
    public var paymentIntent: String?
    /// `warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`, …
    public var status: String
    /// The cardholder's reason, such as `fraudulent`.
    public var reason: String?
    /// The currency, lowercase ISO 4217.
    public var currency: String

    private enum CodingKeys: String, CodingKey {
        case id, amount, charge, status, reason, currency
        case paymentIntent = "payment_intent"
    }

    /// Decodes Stripe's object; expanded references are read for their IDs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        amount = try container.decode(Int64.self, forKey: .amount)
        charge = try container.decode(StripeExpandable.self, forKey: .charge).id
        paymentIntent = try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id
        status = try container.decode(String.self, forKey: .status)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        currency = try container.decode(String.self, forKey: .currency)
    }
}
