/// One line of a Checkout Session (`item`): a Price bought in a quantity.
public struct StripeLineItem: Decodable, Sendable, Hashable {
    /// `li_…`.
    public var id: String
    /// The Price (`price_…`): the catalog's `stripe` store product ID.
    public var priceID: String
    /// Units bought.
    public var quantity: Int?
    /// The line's total after discounts and taxes, in the smallest unit.
    public var amountTotal: Int64?
    /// The currency, lowercase ISO 4217.
    public var currency: String?

    private enum CodingKeys: String, CodingKey {
        case id, price, quantity, currency
        case amountTotal = "amount_total"
    }

    /// Decodes Stripe's object; `price` is an object (or, unexpanded, its ID).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        priceID = try container.decode(StripeExpandable.self, forKey: .price).id
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity)
        amountTotal = try container.decodeIfPresent(Int64.self, forKey: .amountTotal)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
    }
}
