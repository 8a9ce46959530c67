import FulfillmentLedger

/// The simulation's catalog: the one it was given, plus products mapping Google Play purchase
/// options of its one-time products, so the traffic bought through them is granted as the
/// catalog maps it (`playPurchaseOption`), and a Stripe Price and a Steam item ID for each
/// one-time product.
///
/// For each one-time product sold on Google Play that the given catalog does not already map
/// by option: `<id>.bundle` maps the `bundle` purchase option and grants twice its currencies
/// and items; for a consumable, `<id>.bundle-sale` maps the `sale` offer of it and grants three
/// times, and `<id>.rent` maps the `rent` option (a rental) and grants what the product grants.
/// Pre-orders, rentals of non-consumables and other offers map nothing of their own.
enum SimulationCatalog {
    /// The purchase option the bundle products map.
    static let bundleOption = "bundle"
    /// The offer of the bundle option that consumables map.
    static let saleOffer = "sale"
    /// The rental option that consumables map.
    static let rentOption = "rent"
    /// The pre-order option, which nothing maps.
    static let preorderOption = "preorder"

    /// The Stripe Price ID the run's catalog gives a one-time product.
    static func stripePrice(of product: Product) -> String { "price_\(product.id)" }

    /// `catalog` with a Stripe Price for every one-time product that has no store ID there.
    static func withStripePrices(_ catalog: ProductCatalog) -> ProductCatalog {
        catalog.transformingProducts(marker: "stripe") { product in
            guard product.kind != .autoRenewable, product.purchaseOption == nil, product.storeProductIDs[.stripe] == nil
            else { return product }
            var priced = product
            priced.storeProductIDs[.stripe] = stripePrice(of: product)
            return priced
        }
    }

    /// The first Steam item ID the run's catalog gives.
    static let steamItemIDBase: UInt32 = 1_001

    /// `catalog` with a Steam item ID for every one-time product that has no store ID there:
    /// consecutive from `steamItemIDBase` in catalog order, skipping IDs the catalog already
    /// maps. Steam cannot map subscriptions (the catalog loader refuses them).
    static func withSteamItems(_ catalog: ProductCatalog) -> ProductCatalog {
        var taken = Set(catalog.products.compactMap { $0.storeProductIDs[.steam] })
        var next = steamItemIDBase
        return catalog.transformingProducts(marker: "steam") { product in
            guard product.kind != .autoRenewable, product.purchaseOption == nil, product.storeProductIDs[.steam] == nil
            else { return product }
            while taken.contains(String(next)) { next += 1 }
            var mapped = product
            mapped.storeProductIDs[.steam] = String(next)
            taken.insert(String(next))
            next += 1
            return mapped
        }
    }

    /// `catalog` with the option products added.
    static func withPlayOptions(_ catalog: ProductCatalog) -> ProductCatalog {
        let mapped = Set(catalog.products.filter { $0.purchaseOption != nil }.compactMap { $0.storeProductIDs[.playStore] })
        var extra: [Product] = []
        for product in catalog.products where product.kind != .autoRenewable && product.purchaseOption == nil {
            guard let playID = product.storeProductIDs[.playStore], !mapped.contains(playID) else { continue }
            var options = [option(of: product, playID: playID, suffix: bundleOption, times: 2, bundleOption)]
            if product.kind == .consumable {
                options.append(option(of: product, playID: playID, suffix: "bundle-sale", times: 3, bundleOption, offer: saleOffer))
                options.append(option(of: product, playID: playID, suffix: rentOption, times: 1, rentOption))
            }
            // All of a product's option products, or none when one of their IDs is taken.
            guard options.allSatisfy({ catalog.product(id: $0.id) == nil }) else { continue }
            extra += options
        }
        return catalog.adding(extra)
    }

    /// The catalog product a purchase of `product` through `option` (and `offer`) grants, by
    /// the rules above: nil for one the ledger must refuse (a pre-order, an unmapped rental).
    static func expectedProductID(
        of product: Product, option: String?, offer: String?, rental: Bool, preorder: Bool, in catalog: ProductCatalog
    ) -> String? {
        // An option product this catalog lacks (its ID was taken) leaves the product itself.
        func mapped(_ id: String) -> String? { catalog.product(id: id)?.purchaseOption == nil ? nil : id }
        guard let option else { return product.id }
        switch option {
        case rentOption where rental: return mapped("\(product.id).\(rentOption)")
        case _ where rental || preorder: return nil
        case bundleOption where offer == saleOffer:
            return mapped("\(product.id).bundle-sale") ?? mapped("\(product.id).\(bundleOption)") ?? product.id
        case bundleOption: return mapped("\(product.id).\(bundleOption)") ?? product.id
        default: return product.id
        }
    }

    private static func option(
        of product: Product, playID: String, suffix: String, times: Int64, _ optionID: String, offer: String? = nil
    ) -> Product {
        var copy = product
        copy.id = "\(product.id).\(suffix)"
        copy.name = nil
        copy.storeProductIDs = [.playStore: playID]
        copy.purchaseOption = StorePurchaseOption(purchaseOptionID: optionID, offerID: offer)
        copy.rewards = Rewards(
            lines: product.rewards.lines.map { line in
                var scaled = line
                if line.kind != .entitlement { scaled.quantity *= times }
                return scaled
            })
        copy.limit = nil
        return copy
    }
}
