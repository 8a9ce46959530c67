/// What a family member's copy of a shared non-consumable grants (App Store Family Sharing:
/// each family member gets a transaction of their own, `inAppOwnershipType` FAMILY_SHARED).
///
/// One payment unlocks the product for up to six Apple Accounts. Entitlements are what Family
/// Sharing is for; currencies and items granted to every member would mint a whole family's
/// worth of currency from one payment, so they are granted only when the product opts in.
public enum FamilySharingPolicy: String, Hashable, Sendable, CaseIterable, Codable {
    /// Only the product's entitlements (the default).
    case entitlementsOnly
    /// Everything the product grants, currencies and items included.
    case allRewards

    /// The reward lines a family member's transaction of a product with `rewards` grants.
    public func lines(of rewards: Rewards) -> [GrantLine] {
        switch self {
        case .entitlementsOnly: rewards.lines.filter { $0.kind == .entitlement }
        case .allRewards: rewards.lines
        }
    }
}
