import Foundation

/// An `Eligibility` in JSON, one flat object whose `outcome` names the case:
///
/// - `eligible`, `alreadyOwned`, `unknownProduct`;
/// - `limitReached`: `limit` (`{"count", "period"}`), `count` (units bought in the current
///   period), `remaining` (units that may still be bought, possibly 0), `resetsAt`?;
/// - `invalidQuantity`: `quantity` and `quantityMax`.
extension Eligibility: Encodable {
    /// `eligible`, `limitReached`, `alreadyOwned`, `unknownProduct` or `invalidQuantity`.
    public var name: String {
        switch self {
        case .eligible: "eligible"
        case .limitReached: "limitReached"
        case .alreadyOwned: "alreadyOwned"
        case .unknownProduct: "unknownProduct"
        case .invalidQuantity: "invalidQuantity"
        }
    }

    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .limitReached(let limit, let count, let resetsAt):
            try container.encode(limit, forKey: "limit")
            try container.encode(count, forKey: "count")
            try container.encode(max(0, limit.count - count), forKey: "remaining")
            try container.encodeIfPresent(resetsAt, forKey: "resetsAt")
        case .invalidQuantity(let quantity, let quantityMax):
            try container.encode(quantity, forKey: "quantity")
            try container.encode(quantityMax, forKey: "quantityMax")
        case .eligible, .alreadyOwned, .unknownProduct:
            break
        }
    }
}
