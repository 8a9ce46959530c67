/// Flags values that are valid but suspicious, for a designer to look at again.
/// Warnings never make a catalog invalid.
public enum CatalogLinter {
    /// What counts as suspicious.
    public struct Options: Sendable, Hashable {
        /// A reward amount or quantity above this is flagged as a likely typo.
        public var amountWarningThreshold: Int64

        /// Creates options; the default threshold is one million.
        public init(amountWarningThreshold: Int64 = 1_000_000) {
            self.amountWarningThreshold = amountWarningThreshold
        }
    }

    /// Warnings for a valid catalog, located in its source JSON.
    static func warnings(root: JSONValue, catalog: ProductCatalog, options: Options) -> [CatalogProblem] {
        guard case .object(let rootObject, _) = root, case .array(let productValues, _)? = rootObject["products"],
            productValues.count == catalog.products.count
        else { return [] }
        var warnings: [CatalogProblem] = []
        var firstWithRewards: [[GrantLine]: Int] = [:]
        var ownedForever: [String: String] = [:]
        for product in catalog.products where product.kind == .nonConsumable {
            for line in product.rewards.lines where line.kind == .entitlement && ownedForever[line.id] == nil {
                ownedForever[line.id] = product.id
            }
        }
        for (index, product) in catalog.products.enumerated() {
            guard case .object(let object, _) = productValues[index] else { continue }
            let path = "$.products[\(index)]"
            func warn(_ suffix: String, _ message: String, _ value: JSONValue?) {
                warnings.append(
                    CatalogProblem(
                        path: path + suffix, message: message, line: value?.position.line,
                        column: value?.position.column, severity: .warning))
            }
            for (key, rewards) in [("rewards", product.rewards), ("periodRewards", product.periodRewards)] {
                for line in rewards?.lines ?? [] where line.quantity > options.amountWarningThreshold {
                    warn(
                        ".\(key)", "\(line.kind.rawValue) \(line.id) grants \(line.quantity), above the sanity bound of \(options.amountWarningThreshold); check for an extra zero",
                        object[key])
                }
            }
            if let option = product.purchaseOption, let playID = product.storeProductIDs[.playStore],
                catalog.product(store: .playStore, storeProductID: playID) == nil
            {
                warn(
                    ".playPurchaseOption",
                    "\(product.id) maps only \(option) of Google Play product \(playID), and no product maps \(playID) itself: a purchase of it through any other purchase option is refused as unknownProduct",
                    object["playPurchaseOption"])
            }
            if let limit = product.limit, limit.count == 0 {
                warn(".limit.count", "a limit of 0 means no player can ever buy \(product.id)", object["limit"])
            }
            if product.kind == .consumable, product.rewards.lines.contains(where: { $0.kind == .entitlement }) {
                warn(
                    ".rewards.entitlements",
                    "consumable \(product.id) grants an entitlement; entitlements are usually sold as nonConsumable",
                    object["rewards"])
            }
            if product.kind == .autoRenewable, product.periodRewards == nil,
                let (entitlement, owner) = product.rewards.lines.lazy.compactMap({ line in
                    ownedForever[line.id].map { (line.id, $0) }
                }).first
            {
                warn(
                    ".rewards.entitlements",
                    "subscription \(product.id) has no periodRewards and grants entitlement \(entitlement), which nonConsumable \(owner) grants forever; a mistake?",
                    object["rewards"])
            }
            let signature = (product.rewards.lines + (product.periodRewards?.lines ?? [])).sorted {
                ($0.kind.rawValue, $0.id) < ($1.kind.rawValue, $1.id)
            }
            if let first = firstWithRewards[signature], !Self.areTiers(product, catalog.products[first]) {
                warn(
                    ".rewards", "\(product.id) grants exactly what \(catalog.products[first].id) grants ($.products[\(first)]); a copy-paste slip?",
                    object["rewards"])
            } else {
                firstWithRewards[signature] = index
            }
        }
        return warnings
    }

    /// Whether two products are subscriptions of one group, such as a monthly and a yearly
    /// battle pass, which may well grant the same.
    private static func areTiers(_ lhs: Product, _ rhs: Product) -> Bool {
        lhs.kind == .autoRenewable && rhs.kind == .autoRenewable && lhs.subscriptionGroup == rhs.subscriptionGroup
    }
}
