/// A Stripe charge (`charge`): the money of one payment. Events list no refunds since API
/// 2022-11-15, so `amount_refunded`, which is cumulative, is what a refund is keyed on.
public struct StripeCharge: Decodable, Sendable, Hashable {
    /// `ch_…` (or `py_…`).
    public var id: String
    /// The amount charged, in the currency's smallest unit.
    public var amount: Int64
    /// The amount refunded so far, in the smallest unit: cumulative.
    public var amountRefunded: Int64
    /// The currency, lowercase ISO 4217.
    public var currency: String
    /// The PaymentIntent (`pi_…`) the charge belongs to: the Checkout Session's.
    public var paymentIntent: String?
    /// Whether all of it is refunded.
    public var refunded: Bool
    /// Whether a dispute is open or was lost.
    public var disputed: Bool?
    /// Whether the charge is from live mode.
    public var livemode: Bool

    private enum CodingKeys: String, CodingKey {
        case id, amount, currency, refunded, disputed, livemode
        case amountRefunded = "amount_refunded"
        case paymentIntent = "payment_intent"
    }

    /// Decodes Stripe's object; an expanded `payment_intent` object is read for its ID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        amount = try container.decode(Int64.self, forKey: .amount)
        amountRefunded = try container.decode(Int64.self, forKey: .amountRefunded)
        currency = try container.decode(String.self, forKey: .currency)
        paymentIntent = try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id
        refunded = try container.decode(Bool.self, forKey: .refunded)
        disputed = try container.decodeIfPresent(Bool.self, forKey: .disputed)
        livemode = try container.decode(Bool.self, forKey: .livemode)
    }
}
