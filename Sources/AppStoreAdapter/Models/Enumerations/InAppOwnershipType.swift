import FulfillmentLedger

/// Whether the user bought the product or has it through Family Sharing.
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct InAppOwnershipType: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Shared by a family member.
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
    /// Bought by the user.
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")
}
