/// What one purchase of a product does, in plain words: for `ledger catalog explain`.
public struct ProductExplanation: Hashable, Sendable, Codable {
    /// The catalog ID.
    public var productID: String
    /// The display name, if any.
    public var name: String?
    /// Consumable, non-consumable or auto-renewable subscription.
    public var kind: ProductKind
    /// What one unit grants; for a subscription, the entitlements kept active while subscribed.
    public var grants: [GrantLine]
    /// The subscription group of an auto-renewable subscription; nil for other kinds.
    public var subscriptionGroup: String?
    /// What each paid period of an auto-renewable subscription grants; nil when it grants
    /// nothing per period, and for other kinds.
    public var periodGrants: [GrantLine]?
    /// The purchase limit, if any.
    public var limit: PurchaseLimit?
    /// The refund policy of a consumable or subscription; nil for a non-consumable.
    public var refundPolicy: RefundPolicy?
    /// What a family member's shared copy of a non-consumable or subscription grants; nil for a consumable.
    public var familySharing: FamilySharingPolicy?
    /// `store -> store product ID`.
    public var storeProductIDs: [String: String]
    /// The Google Play purchase option (and offer) the product maps, if it maps one.
    public var purchaseOption: StorePurchaseOption?
    /// The explanation, one sentence per line.
    public var lines: [String]

    /// Explains a product of a catalog.
    public init(product: Product, catalog: ProductCatalog) {
        productID = product.id
        name = product.name
        kind = product.kind
        grants = product.rewards.lines
        subscriptionGroup = product.subscriptionGroup
        periodGrants = product.periodRewards?.lines
        limit = product.limit
        refundPolicy = product.refundPolicy
        familySharing = product.familySharing
        storeProductIDs = Dictionary(uniqueKeysWithValues: product.storeProductIDs.map { ($0.key.rawValue, $0.value) })
        purchaseOption = product.purchaseOption
        var lines = ["\(product.id)\(product.name.map { " (\($0))" } ?? ""): \(product.kind.rawValue)"]
        if product.kind == .autoRenewable {
            lines += Self.subscriptionLines(product)
        } else {
            lines.append("one purchase grants:")
            for line in product.rewards.lines {
                switch line.kind {
                case .entitlement: lines.append("  - entitlement \(line.id), kept across Reset Game; removed by a refund or revoke")
                case .currency: lines.append("  - \(line.quantity) \(line.id) (currency), times the quantity bought")
                case .item: lines.append("  - \(line.quantity) x \(line.id) (item), times the quantity bought")
                }
            }
        }
        switch product.limit {
        case nil where product.kind == .autoRenewable:
            lines.append("limit: none; the store sells one subscription per group at a time")
        case nil: lines.append("limit: none")
        case .some(let limit) where limit.period == .week:
            lines.append("limit: \(limit.count) per week (ISO week, resets Monday 00:00 UTC); checked before payment only")
        case .some(let limit):
            lines.append("limit: \(limit.count) per player lifetime (until Reset Game); checked before payment only")
        }
        switch product.refundPolicy {
        case .clawback? where product.kind == .autoRenewable:
            lines.append("refund of a period: claw back exactly what that period granted, into debt if already spent")
        case .floor? where product.kind == .autoRenewable:
            lines.append("refund of a period: debit what that period granted down to zero at most, and flag the player")
        case .clawback?: lines.append("refund: claw back exactly what the purchase granted, into debt if already spent")
        case .floor?: lines.append("refund: debit down to zero at most, and flag the player")
        case nil: lines.append("refund: its entitlements are removed")
        }
        switch product.familySharing {
        case .entitlementsOnly? where product.kind == .autoRenewable:
            lines.append("family sharing: a family member's shared copy grants the entitlements only, no period rewards")
        case .entitlementsOnly?:
            lines.append("family sharing: a family member's shared copy grants the entitlements only, no currency or items")
        case .allRewards?: lines.append("family sharing: a family member's shared copy grants everything above")
        case nil: break
        }
        lines.append("store product IDs:")
        for (store, id) in product.storeProductIDs.sorted(by: { $0.key < $1.key }) {
            if let option = product.purchaseOption(on: store) {
                lines.append("  - \(store.rawValue): \(id), bought through \(option) only")
            } else {
                lines.append("  - \(store.rawValue): \(id)")
            }
        }
        lines += Self.optionLines(product, catalog: catalog)
        lines.append("catalog version: \(catalog.versionHash)")
        self.lines = lines
    }

    /// Which product a purchase through each of the Play product's mapped purchase options grants.
    private static func optionLines(_ product: Product, catalog: ProductCatalog) -> [String] {
        guard let playID = product.storeProductIDs[.playStore] else { return [] }
        let others = catalog.products.filter { other in
            other.id != product.id && other.purchaseOption != nil && other.storeProductIDs[.playStore] == playID
        }
        if let option = product.purchaseOption {
            let fallback = catalog.product(store: .playStore, storeProductID: playID)
            var lines = ["a Google Play purchase of \(playID) grants this product only through \(option)"]
            if option.offerID == nil {
                for other in others {
                    guard let otherOption = other.purchaseOption, otherOption.withoutOffer == option,
                        let offerID = otherOption.offerID
                    else { continue }
                    lines.append("  except through its offer \(offerID), which grants \(other.id)")
                }
            }
            let rest = option.offerID == nil ? "other purchase options" : "other purchase options and offers"
            lines.append(
                fallback.map { "\(rest) of \(playID) grant \($0.id)" }
                    ?? "\(rest) of \(playID) are refused as unknownProduct: no product maps \(playID) itself")
            return lines
        }
        guard !others.isEmpty else { return [] }
        return ["Google Play purchase options of \(playID) mapped to their own products:"]
            + others.compactMap { other in other.purchaseOption.map { "  - \($0): \(other.id)" } }
            + ["  any other purchase option of \(playID) grants this product; a rental or pre-order no product maps is refused"]
    }

    /// The group, the entitlements kept while subscribed and what each paid period grants.
    private static func subscriptionLines(_ product: Product) -> [String] {
        var lines = [
            "subscription group: \(product.subscriptionGroup ?? "none"); a player holds one subscription of the group at a time, and upgrades or downgrades within it",
            "while subscribed, the player owns:",
        ]
        for line in product.rewards.lines where line.kind == .entitlement {
            lines.append("  - entitlement \(line.id), active while the subscription is paid; ends when it expires or is refunded or revoked")
        }
        guard let period = product.periodRewards, !period.isEmpty else {
            lines.append("each paid period grants: nothing more")
            return lines
        }
        lines.append("each paid period grants:")
        for line in period.lines {
            switch line.kind {
            case .currency: lines.append("  - \(line.quantity) \(line.id) (currency), once per period, renewals included")
            case .item: lines.append("  - \(line.quantity) x \(line.id) (item), once per period, renewals included")
            case .entitlement: lines.append("  - entitlement \(line.id)")
            }
        }
        return lines
    }
}
