/// A field Stripe sends as an ID, or as the object it names when expanded: its ID either way.
struct StripeExpandable: Decodable, Hashable {
    var id: String

    private enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            id = text
        } else {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .id)
        }
    }
}
