/// A Stripe list (`"object": "list"`): one page of `data`, and whether more follow.
public struct StripeList<Element: Decodable & Sendable & Hashable>: Decodable, Sendable, Hashable {
    /// The page.
    public var data: [Element]
    /// Whether another page follows.
    public var hasMore: Bool

    private enum CodingKeys: String, CodingKey {
        case data
        case hasMore = "has_more"
    }
}
