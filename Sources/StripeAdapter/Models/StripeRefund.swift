/// A Stripe refund (`refund`).
public struct StripeRefund: Decodable, Sendable, Hashable {
    /// `re_…`.
    public var id: String
    /// The amount refunded, in the smallest unit.
    public var amount: Int64
    /// The charge refunded (`ch_…`).
    public var charge: String?
    /// The PaymentIntent refunded (`pi_…`).
    public var paymentIntent: String?
    /// `pending`, `requires_action`, `succeeded`, `failed` or `canceled`.
    public var status: String?
    /// The currency, lowercase ISO 4217.
    public var currency: String

    private enum CodingKeys: String, CodingKey {
        case id, amount, charge, status, currency
        case paymentIntent = "payment_intent"
    }

    /// Decodes Stripe's object; expanded references are read for their IDs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        amount = try container.decode(Int64.self, forKey: .amount)
        charge = try container.decodeIfPresent(StripeExpandable.self, forKey: .charge)?.id
        paymentIntent = try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id
        status = try container.decodeIfPresent(String.self, forKey: .status)
        currency = try container.decode(String.self, forKey: .currency)
    }
}
