/// How a one-time product was bought when its store sells it several ways: a Google Play
/// purchase option (Play Billing Library 8: "buy", "bundle-of-3", a rental) and, within it, an
/// offer (a discount, a pre-order).
///
/// A catalog product may map one purchase option, or one offer of it, of a Play product to its
/// own rewards (`Product.purchaseOption`). The pipeline picks the most specific product: the
/// one mapping the purchase's option and offer, then the one mapping its option, then the one
/// mapping the Play product ID alone.
public struct StorePurchaseOption: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Google's most bytes in a purchase option ID or an offer ID.
    public static let identifierByteCountMax = 63

    /// The purchase option's ID (Google Play `purchaseOptionId`).
    public var purchaseOptionID: String
    /// The offer's ID within the purchase option (Google Play `offerId`); nil for the option's
    /// own price.
    public var offerID: String?

    /// Creates a purchase option, or an offer of one.
    public init(purchaseOptionID: String, offerID: String? = nil) {
        self.purchaseOptionID = purchaseOptionID
        self.offerID = offerID
    }

    /// The option without its offer: the next, less specific, mapping the pipeline tries.
    public var withoutOffer: StorePurchaseOption { StorePurchaseOption(purchaseOptionID: purchaseOptionID) }

    /// `purchase option bundle` or `purchase option bundle, offer sale`, for messages.
    public var description: String {
        "purchase option \(purchaseOptionID)" + (offerID.map { ", offer \($0)" } ?? "")
    }

    /// Whether `text` is a valid ID by Google's rule for both: 1 to 63 characters, lowercase
    /// letters, digits and hyphens, starting with a letter or digit.
    public static func isValidIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= identifierByteCountMax else { return false }
        func isLowerOrDigit(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        return isLowerOrDigit(first) && text.utf8.allSatisfy { isLowerOrDigit($0) || $0 == 0x2D }
    }
}
