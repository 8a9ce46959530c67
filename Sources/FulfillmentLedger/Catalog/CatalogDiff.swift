/// The differences between two catalogs.
public struct CatalogDiffReport: Hashable, Sendable, Codable {
    /// The old catalog's version hash.
    public var oldVersion: String
    /// The new catalog's version hash.
    public var newVersion: String
    /// Every change: currency, item and entitlement definitions first, then products in the old
    /// catalog's order, added products, and store product IDs moved between products.
    public var changes: [CatalogChange]
    /// Whether any change is dangerous.
    public var isDangerous: Bool { changes.contains(where: \.dangerous) }
    /// The most serious change's severity (`safe` when nothing changed).
    public var severity: CatalogChange.Severity { changes.map(\.severity).max() ?? .safe }
}

/// Compares two catalogs and flags the changes that are unsafe for purchases already sold and
/// for players who own what they bought.
public enum CatalogDiff {
    /// Compares `old` with `new`. With `ledger` (counts read from the live ledger) a change says
    /// how often the product was sold or how many players own what it concerns, and a change
    /// that would be dangerous is safe when the ledger shows it reaches nobody; without it every
    /// product is assumed sold and every definition owned.
    public static func compare(old: ProductCatalog, new: ProductCatalog, ledger: CatalogLedgerCounts?) -> CatalogDiffReport {
        let renamedTo = productRenames(old: old, new: new)
        var successors: [String: Product] = [:]
        for product in old.products {
            if let successor = new.product(id: renamedTo[product.id] ?? product.id) { successors[product.id] = successor }
        }
        var changes = CatalogDefinitionDiff.compare(old: old, new: new, successors: successors, ledger: ledger)
        for product in old.products {
            let sold = count(ledger?.salesByProduct, product.id)
            if let successorID = renamedTo[product.id], let successor = successors[product.id] {
                changes.append(renamed(product, to: successorID, sold: sold))
                changes += compareProduct(product, successor, sold: sold, ledger: ledger)
            } else if let current = successors[product.id] {
                changes += compareProduct(product, current, sold: sold, ledger: ledger)
            } else {
                changes.append(removed(product, sold: sold))
            }
        }
        let renameTargets = Set(renamedTo.values)
        let oldIDs = Set(old.products.map(\.id))
        for product in new.products where !oldIDs.contains(product.id) && !renameTargets.contains(product.id) {
            changes.append(
                CatalogChange(
                    kind: .productAdded, subject: .product, id: product.id, severity: .safe,
                    message: "new product \(product.id); it can be sold once its store product IDs exist in the stores"))
        }
        changes += remaps(old: old, new: new, renamedTo: renamedTo, ledger: ledger)
        return CatalogDiffReport(oldVersion: old.versionHash, newVersion: new.versionHash, changes: changes)
    }

    /// Compares `old` with `new` given only per-product sale counts (nil: assume sold). A store
    /// product ID then counts as sold whenever its product was, on any store; definitions count
    /// as owned.
    public static func compare(old: ProductCatalog, new: ProductCatalog, saleCounts: [String: Int]?) -> CatalogDiffReport {
        guard let saleCounts else { return compare(old: old, new: new, ledger: nil) }
        var perStoreProduct: [StoreProductKey: Int] = [:]
        for product in old.products {
            for (store, storeProductID) in product.storeProductIDs {
                perStoreProduct[StoreProductKey(store: store, storeProductID: storeProductID)] = saleCounts[product.id] ?? 0
            }
        }
        var counts = CatalogLedgerCounts(salesByProduct: saleCounts, salesByStoreProduct: perStoreProduct)
        counts.ownersCounted = false
        return compare(old: old, new: new, ledger: counts)
    }

    /// A count from the ledger: nil without a ledger, 0 for what the ledger never saw.
    static func count<Key: Hashable>(_ counts: [Key: Int]?, _ key: Key) -> Int? {
        counts.map { $0[key] ?? 0 }
    }

    /// Dangerous unless the ledger shows nobody is reached.
    static func dangerousUnlessNone(_ count: Int?) -> CatalogChange.Severity { count == 0 ? .safe : .dangerous }

    /// Old product ID -> new product ID, for products whose store product IDs now map to a new catalog ID.
    private static func productRenames(old: ProductCatalog, new: ProductCatalog) -> [String: String] {
        let newIDs = Set(new.products.map(\.id))
        let oldIDs = Set(old.products.map(\.id))
        var renamedTo: [String: String] = [:]
        for product in old.products where !newIDs.contains(product.id) {
            for (store, storeProductID) in product.storeProductIDs.sorted(by: { $0.key < $1.key }) {
                if let candidate = new.product(
                    store: store, storeProductID: storeProductID, exactly: product.purchaseOption(on: store)),
                    !oldIDs.contains(candidate.id)
                {
                    renamedTo[product.id] = candidate.id
                    break
                }
            }
        }
        return renamedTo
    }

    /// How often it was sold, `qualifier` (such as " under that ID") after the verb.
    private static func soldText(_ sold: Int?, _ qualifier: String = "") -> String {
        guard let sold else { return "it may have been sold\(qualifier) (pass --db to count)" }
        return sold == 0 ? "the ledger has never sold it\(qualifier)" : "the ledger has sold it \(sold) time(s)\(qualifier)"
    }

    private static func renamed(_ product: Product, to successorID: String, sold: Int?) -> CatalogChange {
        CatalogChange(
            kind: .productRenamed, subject: .product, id: product.id, severity: dangerousUnlessNone(sold),
            message: "renamed \(product.id) to \(successorID): \(soldText(sold)); past records keep the old ID, so refunds and reports of them no longer find the product. Keep the ID and change only the name instead",
            soldCount: sold)
    }

    private static func removed(_ product: Product, sold: Int?) -> CatalogChange {
        CatalogChange(
            kind: .productRemoved, subject: .product, id: product.id, severity: dangerousUnlessNone(sold),
            message: "removed \(product.id): \(soldText(sold)); a purchase paid for but not yet fulfilled (a pending payment, a grant awaiting retry) would be rejected as unknownProduct and the player would get nothing. To retire it, stop selling it in the stores first, wait until no purchase of it is pending, then remove it here",
            soldCount: sold)
    }

    private static func compareProduct(_ old: Product, _ new: Product, sold: Int?, ledger: CatalogLedgerCounts?) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        func add(_ kind: CatalogChange.Kind, _ severity: CatalogChange.Severity, _ message: String, sold: Int? = sold) {
            changes.append(
                CatalogChange(kind: kind, subject: .product, id: old.id, severity: severity, message: message, soldCount: sold))
        }
        if old.kind != new.kind {
            add(.kindChanged, .dangerous, "\(old.id) changes from \(old.kind.rawValue) to \(new.kind.rawValue): stores treat the two differently (restore, finish), so players who bought it would be handled wrongly. Create a new product instead")
        }
        if old.rewards != new.rewards {
            let before = old.rewards.lines.map(\.description).joined(separator: ", ")
            let after = new.rewards.lines.map(\.description).joined(separator: ", ")
            var message = "\(old.id) now grants [\(after)] instead of [\(before)]: \(soldText(sold)). Only future purchases get the new rewards; past purchases keep what they granted, and a refund of a past purchase claws back the old amounts"
            var severity = CatalogChange.Severity.safe
            let gained = entitlements(of: new).subtracting(entitlements(of: old)).sorted()
            if old.kind == .nonConsumable, new.kind == .nonConsumable, !gained.isEmpty {
                // Ownership of a non-consumable is "owns every entitlement it grants".
                message += ". Players who bought it do not own \(gained.joined(separator: ", ")), so the game no longer sees them as owning \(old.id) and offers it to them again: they would pay again"
                severity = sold == 0 ? .safe : .review
            }
            add(.rewardsChanged, severity, message)
        }
        if old.limit != new.limit {
            let lowered = (new.limit?.count ?? Int.max) < (old.limit?.count ?? Int.max) || old.limit?.period != new.limit?.period
            let note = lowered ? " Lowering a limit never blocks a payment already made: it only stops the next purchase before payment." : ""
            add(.limitChanged, .safe, "\(old.id) limit changes from \(describe(old.limit)) to \(describe(new.limit)).\(note)")
        }
        if old.refundPolicy != new.refundPolicy {
            add(.refundPolicyChanged, .safe, "\(old.id) refund policy changes from \(old.refundPolicy?.rawValue ?? "none") to \(new.refundPolicy?.rawValue ?? "none"); it applies to refunds processed from now on")
        }
        if old.kind == new.kind, old.familySharing != new.familySharing {
            add(.familySharingChanged, .safe, "\(old.id) family sharing changes from \(old.familySharing?.rawValue ?? "none") to \(new.familySharing?.rawValue ?? "none"); only family members' transactions fulfilled from now on get the new rewards")
        }
        if old.kind == new.kind, old.periodRewards != new.periodRewards {
            add(.periodRewardsChanged, .safe, "\(old.id) each paid period now grants [\(describe(new.periodRewards))] instead of [\(describe(old.periodRewards))]: only periods not yet granted get the new rewards; periods already granted keep what their record says, and a refund of one takes back what it granted")
        }
        if old.kind == new.kind, old.subscriptionGroup != new.subscriptionGroup {
            add(.subscriptionGroupChanged, dangerousUnlessNone(sold), "\(old.id) moves from subscription group \(old.subscriptionGroup ?? "none") to \(new.subscriptionGroup ?? "none"): \(soldText(sold)); a store never moves a product between groups, so current subscribers stay in the old one and the ledger would place their subscription in the wrong group (its upgrades, downgrades and one subscription per group). Create a new product in the new group instead")
        }
        for store in Set(old.storeProductIDs.keys).union(new.storeProductIDs.keys).sorted() {
            let before = old.storeProductIDs[store]
            let after = new.storeProductIDs[store]
            guard before != after || old.purchaseOption(on: store) != new.purchaseOption(on: store) else { continue }
            if let before {
                // Sales are counted per store product ID: a purchase option's are counted with its product's.
                let soldUnderID = count(ledger?.salesByStoreProduct, StoreProductKey(store: store, storeProductID: before))
                add(.storeIDRemoved, dangerousUnlessNone(soldUnderID), "\(old.id) no longer maps \(mapping(store, before, old)): \(soldText(soldUnderID, " under that ID")); a purchase under it paid for but not yet fulfilled would be \(old.purchaseOption(on: store) == nil ? "rejected as unknownProduct" : "granted as the product mapping \(before) itself, or rejected as unknownProduct")", sold: soldUnderID)
            }
            if let after {
                add(.storeIDAdded, .safe, "\(old.id) is now also sold as \(mapping(store, after, new))")
            }
        }
        return changes
    }

    /// `store/storeProductID`, with the purchase option that qualifies it, for messages.
    private static func mapping(_ store: PlatformStore, _ storeProductID: String, _ product: Product) -> String {
        "\(store)/\(storeProductID)" + (product.purchaseOption(on: store).map { " (\($0))" } ?? "")
    }

    private static func entitlements(of product: Product) -> Set<String> {
        Set(product.rewards.lines.filter { $0.kind == .entitlement }.map(\.id))
    }

    private static func remaps(
        old: ProductCatalog, new: ProductCatalog, renamedTo: [String: String], ledger: CatalogLedgerCounts?
    ) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        for product in old.products {
            for (store, storeProductID) in product.storeProductIDs.sorted(by: { $0.key < $1.key }) {
                let option = product.purchaseOption(on: store)
                guard let target = new.product(store: store, storeProductID: storeProductID, exactly: option),
                    target.id != product.id, renamedTo[product.id] != target.id
                else { continue }
                let mapping = "\(store)/\(storeProductID)" + (option.map { " (\($0))" } ?? "")
                let sold = count(ledger?.salesByStoreProduct, StoreProductKey(store: store, storeProductID: storeProductID))
                changes.append(
                    CatalogChange(
                        kind: .storeIDRemapped, subject: .product, id: product.id, severity: .dangerous,
                        message: "\(mapping) moves from \(product.id) to \(target.id): \(soldText(sold, " under that ID")); players paying the old price would get the other product's rewards. Give the new product its own store product ID",
                        soldCount: sold))
            }
        }
        return changes
    }

    private static func describe(_ rewards: Rewards?) -> String {
        rewards?.lines.map(\.description).joined(separator: ", ") ?? ""
    }

    private static func describe(_ limit: PurchaseLimit?) -> String {
        guard let limit else { return "no limit" }
        return "\(limit.count) per \(limit.period.rawValue)"
    }
}
