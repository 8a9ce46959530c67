/// Compares the currency, item and entitlement definitions of two catalogs. Products say what
/// the next purchase grants; definitions say what players already hold means, so a change to
/// one reaches every player who bought it, not only future buyers.
enum CatalogDefinitionDiff {
    /// Changes to definitions, in the order the catalog declares them: currencies, items,
    /// entitlements. `successors` maps an old product ID to its product in the new catalog
    /// (same ID, or the product it was renamed to).
    static func compare(
        old: ProductCatalog, new: ProductCatalog, successors: [String: Product], ledger: CatalogLedgerCounts?
    ) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        for kind in [AssetKind.currency, .item, .entitlement] {
            changes += compare(kind, old: old, new: new, successors: successors, owners: ledger?.owners(of: kind))
        }
        return changes + entitlementPolicies(old: old, new: new, owners: ledger?.owners(of: .entitlement))
    }

    /// Added, removed and renamed definitions of one kind.
    private static func compare(
        _ kind: AssetKind, old: ProductCatalog, new: ProductCatalog, successors: [String: Product], owners: [String: Int]?
    ) -> [CatalogChange] {
        let oldIDs = declaredIDs(kind, in: old)
        let newIDs = declaredIDs(kind, in: new)
        let kept = Set(oldIDs).intersection(newIDs)
        var added = newIDs.filter { !kept.contains($0) }
        var changes: [CatalogChange] = []
        for id in oldIDs where !kept.contains(id) {
            let ownerCount = CatalogDiff.count(owners, id)
            if let (target, via) = renameTarget(of: id, kind, old: old, successors: successors, added: added) {
                added.removeAll { $0 == target }
                changes.append(
                    CatalogChange(
                        kind: Kinds(kind).renamed, subject: Kinds(kind).subject, id: id,
                        severity: CatalogDiff.dangerousUnlessNone(ownerCount),
                        message: renamedMessage(id, kind, to: target, via: via, ownerCount: ownerCount, old: old),
                        ownerCount: ownerCount))
            } else {
                changes.append(
                    CatalogChange(
                        kind: Kinds(kind).removed, subject: Kinds(kind).subject, id: id,
                        severity: CatalogDiff.dangerousUnlessNone(ownerCount),
                        message: removedMessage(id, kind, ownerCount: ownerCount, old: old, successors: successors),
                        ownerCount: ownerCount))
            }
        }
        for id in added {
            changes.append(
                CatalogChange(
                    kind: Kinds(kind).added, subject: Kinds(kind).subject, id: id, severity: .safe,
                    message: "new \(kind.rawValue) \(id); products can grant it from now on"))
        }
        return changes
    }

    /// `removesAds` and `unknownPolicy` of entitlements declared in both catalogs.
    private static func entitlementPolicies(old: ProductCatalog, new: ProductCatalog, owners: [String: Int]?) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        for before in old.entitlements {
            guard let after = new.entitlement(id: before.id) else { continue }
            let ownerCount = CatalogDiff.count(owners, before.id)
            let who = ownersText(.entitlement, ownerCount)
            func add(_ kind: CatalogChange.Kind, _ severity: CatalogChange.Severity, _ message: String) {
                changes.append(
                    CatalogChange(
                        kind: kind, subject: .entitlement, id: before.id, severity: severity, message: message,
                        ownerCount: ownerCount))
            }
            if before.removesAds, !after.removesAds {
                add(.removesAdsChanged, CatalogDiff.dangerousUnlessNone(ownerCount), "entitlement \(before.id) no longer removes ads: \(who); players who paid to remove ads would see ads again")
            } else if !before.removesAds, after.removesAds {
                add(.removesAdsChanged, ownerCount == 0 ? .safe : .review, "entitlement \(before.id) now removes ads: \(who), and they stop seeing ads at once; check that this is meant")
            }
            if before.unknownPolicy == .failOpen, after.unknownPolicy == .failClosed {
                add(.unknownPolicyChanged, CatalogDiff.dangerousUnlessNone(ownerCount), "entitlement \(before.id) changes from failOpen to failClosed: \(who); while the ledger cannot be read, players who paid for it would be treated as not owning it")
            } else if before.unknownPolicy == .failClosed, after.unknownPolicy == .failOpen {
                // It gives, to owners and non-owners alike, so no owner count makes it safe.
                add(.unknownPolicyChanged, .review, "entitlement \(before.id) changes from failClosed to failOpen: while the ledger cannot be read, every player, paying or not, is treated as owning it (ads stay off while ownership is unknown, whatever the policy)")
            }
        }
        return changes
    }

    /// The added ID that a product granting `id` grants instead in the new catalog, with that product.
    private static func renameTarget(
        of id: String, _ kind: AssetKind, old: ProductCatalog, successors: [String: Product], added: [String]
    ) -> (target: String, via: Product)? {
        for product in old.products where grantedIDs(kind, by: product).contains(id) {
            guard let successor = successors[product.id] else { continue }
            let before = grantedIDs(kind, by: product)
            if let target = grantedIDs(kind, by: successor).first(where: { added.contains($0) && !before.contains($0) }) {
                return (target, successor)
            }
        }
        return nil
    }

    private static func removedMessage(
        _ id: String, _ kind: AssetKind, ownerCount: Int?, old: ProductCatalog, successors: [String: Product]
    ) -> String {
        let who = ownersText(kind, ownerCount)
        guard kind == .entitlement else {
            return "\(kind.rawValue) \(id) is no longer declared: \(who). Their \(holdingNoun(kind)) stay in the ledger, but the game can no longer spend or grant it (unknownAsset), so players lose the use of what they bought. Keep it declared; change only its name"
        }
        // A non-consumable that granted it now grants only other entitlements, which its buyers lack.
        let reoffered = old.products.filter { product in
            product.kind == .nonConsumable && grantedIDs(.entitlement, by: product).contains(id)
                && successors[product.id]?.kind == .nonConsumable
        }.map { successors[$0.id]?.id ?? $0.id }
        let reofferedNote = reoffered.isEmpty
            ? "" : "; \(reoffered.joined(separator: ", ")) no longer counts as owned, so they can buy it again"
        return "entitlement \(id) is no longer declared: \(who). Players who bought it keep it in the ledger, but the game no longer knows it\(adsNote(id, old))\(reofferedNote). Keep it declared; change only its name"
    }

    private static func renamedMessage(
        _ id: String, _ kind: AssetKind, to target: String, via: Product, ownerCount: Int?, old: ProductCatalog
    ) -> String {
        let head = "\(kind.rawValue) \(id) is renamed to \(target) (\(via.id) now grants \(target)): \(ownersText(kind, ownerCount))."
        guard kind == .entitlement else {
            return "\(head) Their \(holdingNoun(kind)) stay under \(id), which the game can no longer spend (unknownAsset): they start again from zero \(target). Keep the ID and change only the name"
        }
        // Owning a non-consumable means owning every entitlement it grants: its buyers lack the new one.
        let reofferNote = via.kind == .nonConsumable ? ", and \(via.id) no longer counts as owned, so they can buy it again" : ""
        return "\(head) Players who bought it own \(id), not \(target)\(adsNote(id, old))\(reofferNote). Keep the ID and change only the name"
    }

    private static func adsNote(_ id: String, _ old: ProductCatalog) -> String {
        old.entitlement(id: id)?.removesAds == true ? "; it no longer turns their ads off, so they see ads again" : ""
    }

    private static func ownersText(_ kind: AssetKind, _ count: Int?) -> String {
        let verb = kind == .entitlement ? "own" : "hold"
        guard let count else { return "players may \(verb) it (pass --db to count)" }
        return count == 0 ? "no player \(verb)s it" : "\(count) player(s) \(verb) it"
    }

    private static func holdingNoun(_ kind: AssetKind) -> String { kind == .currency ? "balances" : "stacks" }

    private static func declaredIDs(_ kind: AssetKind, in catalog: ProductCatalog) -> [String] {
        switch kind {
        case .currency: catalog.currencies.map(\.id)
        case .item: catalog.items.map(\.id)
        case .entitlement: catalog.entitlements.map(\.id)
        }
    }

    private static func grantedIDs(_ kind: AssetKind, by product: Product) -> [String] {
        product.rewards.lines.filter { $0.kind == kind }.map(\.id)
    }

    /// The change kinds and subject of one kind of definition.
    private struct Kinds {
        var added: CatalogChange.Kind
        var removed: CatalogChange.Kind
        var renamed: CatalogChange.Kind
        var subject: CatalogChange.Subject

        init(_ kind: AssetKind) {
            switch kind {
            case .currency: (added, removed, renamed, subject) = (.currencyAdded, .currencyRemoved, .currencyRenamed, .currency)
            case .item: (added, removed, renamed, subject) = (.itemAdded, .itemRemoved, .itemRenamed, .item)
            case .entitlement:
                (added, removed, renamed, subject) = (.entitlementAdded, .entitlementRemoved, .entitlementRenamed, .entitlement)
            }
        }
    }
}
