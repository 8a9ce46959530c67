/// A Stripe Checkout Session (`checkout.session`): one web-shop purchase, whose player the game
/// set (`client_reference_id`, or `metadata`) and whose line items are Prices the catalog maps.
/// Stripe's names kept; enums as Stripe's strings.
public struct StripeCheckoutSession: Decodable, Sendable, Hashable {
    /// `cs_…`.
    public var id: String
    /// The game's reference set when it created the session: the player.
    public var clientReferenceID: String?
    /// The game's key-value pairs set when it created the session.
    public var metadata: [String: String]?
    /// `paid`, `unpaid` or `no_payment_required`.
    public var paymentStatus: String
    /// `open`, `complete` or `expired`.
    public var status: String?
    /// `payment`, `setup` or `subscription`.
    public var mode: String
    /// The PaymentIntent's ID (`pi_…`), in `payment` mode; refunds and disputes name it.
    public var paymentIntent: String?
    /// Whether the session is from live mode.
    public var livemode: Bool
    /// When the session was created, in seconds since 1970.
    public var created: Int64
    /// The total after discounts and taxes, in the currency's smallest unit.
    public var amountTotal: Int64?
    /// The currency, lowercase ISO 4217.
    public var currency: String?
    /// The line items, when expanded (`expand[]=line_items`); a webhook never carries them.
    public var lineItems: StripeList<StripeLineItem>?

    private enum CodingKeys: String, CodingKey {
        case id, metadata, status, mode, livemode, created, currency
        case clientReferenceID = "client_reference_id"
        case paymentStatus = "payment_status"
        case paymentIntent = "payment_intent"
        case amountTotal = "amount_total"
        case lineItems = "line_items"
    }

    /// Decodes Stripe's object; an expanded `payment_intent` object is read for its ID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        clientReferenceID = try container.decodeIfPresent(String.self, forKey: .clientReferenceID)
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata)
        paymentStatus = try container.decode(String.self, forKey: .paymentStatus)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        mode = try container.decode(String.self, forKey: .mode)
        paymentIntent = try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id
        livemode = try container.decode(Bool.self, forKey: .livemode)
        created = try container.decode(Int64.self, forKey: .created)
        amountTotal = try container.decodeIfPresent(Int64.self, forKey: .amountTotal)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        lineItems = try container.decodeIfPresent(StripeList<StripeLineItem>.self, forKey: .lineItems)
    }

    /// `payment_status` of a session whose money arrived.
    public static let paid = "paid"
}
