/// Step 2c of the pipeline: the store's own word on what a product is agrees with the catalog.
///
/// The catalog's kind decides how a purchase is keyed and granted (a non-consumable by its
/// original transaction, once; a consumable by each transaction, in any quantity). When the
/// store's proof names the type (App Store `type`) and it disagrees, the catalog or the store's
/// product setup is wrong, and granting with either semantics could mint rewards again on every
/// restore or lose a paid-for purchase; so the purchase is refused and nothing changes. The
/// platform transaction stays unfinished, and the store delivers it again once the catalog is fixed.
///
/// The check runs before the ledger lookup, so a redelivery of a purchase the ledger already
/// holds is refused the same way while the mismatch lasts: its lookup key itself depends on
/// the kind. A delivery whose product left the catalog is answered from its record, as before.
enum ProductTypeCheck {
    /// Why `verified` must not be fulfilled as `product`, or nil when the types agree or the
    /// store does not say.
    static func rejection(_ verified: VerifiedTransaction, for product: Product) -> Rejection? {
        // A rental or pre-order is granted only by the product that maps its option or offer,
        // as that product's kind says.
        if let type = verified.storeProductType, !(type.needsPurchaseOptionMapping && product.purchaseOption != nil) {
            guard let kind = type.productKind else {
                return Rejection(
                    .unsupportedProductType,
                    "the store sells \(verified.storeProductID) as \(type), which this ledger does not fulfill")
            }
            guard kind == product.kind else {
                return Rejection(
                    .productTypeMismatch,
                    "the store sells \(verified.storeProductID) as \(type); the catalog's \(product.id) is \(product.kind.rawValue)")
            }
        }
        guard product.kind == .autoRenewable else {
            guard verified.subscriptionPeriod == nil else {
                return Rejection(
                    .productTypeMismatch,
                    "the store sells \(verified.storeProductID) as a subscription; the catalog's \(product.id) is \(product.kind.rawValue)")
            }
            return nil
        }
        // A period is keyed by the store's period ID; keying it by the delivery would grant it
        // again on every restore, so a proof without one is refused. A purchase not paid yet
        // (Play's pending subscription) has no period and is refused for its state instead.
        if verified.subscriptionPeriod == nil, verified.state != .purchased { return nil }
        guard let period = verified.subscriptionPeriod, !period.periodID.isEmpty, !period.chainID.isEmpty else {
            return Rejection(
                .unverified, "the store's proof of subscription \(verified.storeProductID) lacks its period ID, chain or expiry")
        }
        guard period.expiresAt > verified.purchaseDate, period.expiresAt.isInLedgerRange else {
            return Rejection(.unverified, "the subscription period of \(verified.key) ends before it starts or out of range")
        }
        return nil
    }
}
