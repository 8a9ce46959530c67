/// One difference between two catalogs, explained for the designer reviewing it.
public struct CatalogChange: Hashable, Sendable, Codable {
    /// What changed.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A new product.
        case productAdded
        /// A product is gone.
        case productRemoved
        /// A product's ID changed (the same store product IDs now map to a new catalog ID).
        case productRenamed
        /// Consumable became non-consumable or the reverse.
        case kindChanged
        /// What one purchase grants changed.
        case rewardsChanged
        /// The purchase limit changed.
        case limitChanged
        /// The refund policy changed.
        case refundPolicyChanged
        /// A store product ID was added to a product.
        case storeIDAdded
        /// A store product ID no longer maps to the product.
        case storeIDRemoved
        /// A store product ID now maps to a different catalog product.
        case storeIDRemapped
    }

    /// What changed.
    public var kind: Kind
    /// The catalog product concerned (the old ID for a rename or removal).
    public var productID: String
    /// Whether the change can orphan or misgrant purchases already sold.
    public var dangerous: Bool
    /// What it means, in a designer's words.
    public var message: String
    /// How many times the ledger has sold the product, when a ledger was given.
    public var soldCount: Int?
}

/// The differences between two catalogs.
public struct CatalogDiffReport: Hashable, Sendable, Codable {
    /// The old catalog's version hash.
    public var oldVersion: String
    /// The new catalog's version hash.
    public var newVersion: String
    /// Every change, in product order.
    public var changes: [CatalogChange]
    /// Whether any change is dangerous.
    public var isDangerous: Bool { changes.contains(where: \.dangerous) }
}

/// Compares two catalogs and flags the changes that are unsafe for purchases already sold.
public enum CatalogDiff {
    /// Compares `old` with `new`. With `saleCounts` (from the live ledger) removals and
    /// rewards changes say how often the product was sold; without it a removal is
    /// treated as dangerous because it may have been sold.
    public static func compare(old: ProductCatalog, new: ProductCatalog, saleCounts: [String: Int]?) -> CatalogDiffReport {
        var changes: [CatalogChange] = []
        let newIDs = Set(new.products.map(\.id))
        let oldIDs = Set(old.products.map(\.id))
        var renamedTo: [String: String] = [:]
        for product in old.products where !newIDs.contains(product.id) {
            if let successor = renameTarget(of: product, in: new, excluding: oldIDs) { renamedTo[product.id] = successor.id }
        }
        for product in old.products {
            let sold = saleCounts?[product.id] ?? (saleCounts == nil ? nil : 0)
            if let successorID = renamedTo[product.id], let successor = new.product(id: successorID) {
                changes.append(renamed(product, to: successor, sold: sold))
                changes += compareProduct(product, successor, sold: sold)
            } else if let current = new.product(id: product.id) {
                changes += compareProduct(product, current, sold: sold)
            } else {
                changes.append(removed(product, sold: sold))
            }
        }
        let renameTargets = Set(renamedTo.values)
        for product in new.products where !oldIDs.contains(product.id) && !renameTargets.contains(product.id) {
            changes.append(
                CatalogChange(
                    kind: .productAdded, productID: product.id, dangerous: false,
                    message: "new product \(product.id); it can be sold once its store product IDs exist in the stores",
                    soldCount: nil))
        }
        changes += remaps(old: old, new: new, renamedTo: renamedTo, saleCounts: saleCounts)
        return CatalogDiffReport(oldVersion: old.versionHash, newVersion: new.versionHash, changes: changes)
    }

    private static func renameTarget(of product: Product, in new: ProductCatalog, excluding oldIDs: Set<String>) -> Product? {
        for (store, storeProductID) in product.storeProductIDs.sorted(by: { $0.key < $1.key }) {
            if let candidate = new.product(store: store, storeProductID: storeProductID), !oldIDs.contains(candidate.id) {
                return candidate
            }
        }
        return nil
    }

    private static func soldText(_ sold: Int?) -> String {
        guard let sold else { return "it may have been sold (pass --db to count)" }
        return sold == 0 ? "the ledger has never sold it" : "the ledger has sold it \(sold) time(s)"
    }

    private static func renamed(_ product: Product, to successor: Product, sold: Int?) -> CatalogChange {
        CatalogChange(
            kind: .productRenamed, productID: product.id, dangerous: sold != 0,
            message: "renamed \(product.id) to \(successor.id): \(soldText(sold)); past records keep the old ID, so refunds and reports of them no longer find the product. Keep the ID and change only the name instead",
            soldCount: sold)
    }

    private static func removed(_ product: Product, sold: Int?) -> CatalogChange {
        CatalogChange(
            kind: .productRemoved, productID: product.id, dangerous: sold != 0,
            message: "removed \(product.id): \(soldText(sold)); a purchase paid for but not yet fulfilled (a pending payment, a grant awaiting retry) would be rejected as unknownProduct and the player would get nothing. To retire it, stop selling it in the stores first, wait until no purchase of it is pending, then remove it here",
            soldCount: sold)
    }

    private static func compareProduct(_ old: Product, _ new: Product, sold: Int?) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        func add(_ kind: CatalogChange.Kind, _ dangerous: Bool, _ message: String) {
            changes.append(CatalogChange(kind: kind, productID: old.id, dangerous: dangerous, message: message, soldCount: sold))
        }
        if old.kind != new.kind {
            add(.kindChanged, true, "\(old.id) changes from \(old.kind.rawValue) to \(new.kind.rawValue): stores treat the two differently (restore, finish), so players who bought it would be handled wrongly. Create a new product instead")
        }
        if old.rewards != new.rewards {
            let before = old.rewards.lines.map(\.description).joined(separator: ", ")
            let after = new.rewards.lines.map(\.description).joined(separator: ", ")
            add(.rewardsChanged, false, "\(old.id) now grants [\(after)] instead of [\(before)]: \(soldText(sold)). Only future purchases get the new rewards; past purchases keep what they granted, and a refund of a past purchase claws back the old amounts")
        }
        if old.limit != new.limit {
            let lowered = (new.limit?.count ?? Int.max) < (old.limit?.count ?? Int.max) || old.limit?.period != new.limit?.period
            let note = lowered ? " Lowering a limit never blocks a payment already made: it only stops the next purchase before payment." : ""
            add(.limitChanged, false, "\(old.id) limit changes from \(describe(old.limit)) to \(describe(new.limit)).\(note)")
        }
        if old.refundPolicy != new.refundPolicy {
            add(.refundPolicyChanged, false, "\(old.id) refund policy changes from \(old.refundPolicy?.rawValue ?? "none") to \(new.refundPolicy?.rawValue ?? "none"); it applies to refunds processed from now on")
        }
        for store in Set(old.storeProductIDs.keys).union(new.storeProductIDs.keys).sorted() {
            let before = old.storeProductIDs[store]
            let after = new.storeProductIDs[store]
            guard before != after else { continue }
            if let before {
                add(.storeIDRemoved, sold != 0, "\(old.id) no longer maps \(store)/\(before): \(soldText(sold)); a purchase under it paid for but not yet fulfilled would be rejected as unknownProduct")
            }
            if let after {
                add(.storeIDAdded, false, "\(old.id) is now also sold as \(store)/\(after)")
            }
        }
        return changes
    }

    private static func remaps(
        old: ProductCatalog, new: ProductCatalog, renamedTo: [String: String], saleCounts: [String: Int]?
    ) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        for product in old.products {
            for (store, storeProductID) in product.storeProductIDs.sorted(by: { $0.key < $1.key }) {
                guard let target = new.product(store: store, storeProductID: storeProductID), target.id != product.id,
                    renamedTo[product.id] != target.id
                else { continue }
                let sold = saleCounts?[product.id]
                changes.append(
                    CatalogChange(
                        kind: .storeIDRemapped, productID: product.id, dangerous: true,
                        message: "\(store)/\(storeProductID) moves from \(product.id) to \(target.id): \(soldText(sold ?? (saleCounts == nil ? nil : 0))); players paying the old price would get the other product's rewards. Give the new product its own store product ID",
                        soldCount: sold))
            }
        }
        return changes
    }

    private static func describe(_ limit: PurchaseLimit?) -> String {
        guard let limit else { return "no limit" }
        return "\(limit.count) per \(limit.period.rawValue)"
    }
}
