import Foundation

/// Consumable products can be bought again and again; non-consumables once per owner;
/// auto-renewable subscriptions are renewed by the store, one paid period after another.
public enum ProductKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Used up: currency packs, bundles, offers.
    case consumable
    /// Owned forever: `remove_ads`, a premium level pack.
    case nonConsumable
    /// An auto-renewable subscription: a VIP pass, a monthly battle pass. Its entitlements
    /// stay active while the subscription entitles the player, and its `periodRewards` are
    /// granted once per paid period.
    case autoRenewable
}

/// The window a purchase limit counts in.
public enum LimitPeriod: String, Hashable, Sendable, Codable, CaseIterable {
    /// For the player's whole life (until a game reset clears purchase counts).
    case lifetime
    /// Per ISO 8601 week: Monday 00:00 UTC to the next Monday 00:00 UTC.
    case week
}

/// What a refund of a consumable takes back.
public enum RefundPolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Debit exactly what the purchase granted, even into a negative balance (recorded as debt).
    case clawback
    /// Debit down to zero at most, and flag the player.
    case floor
}

/// At most `count` units of a product bought per `period`, checked before payment.
public struct PurchaseLimit: Hashable, Sendable, Codable {
    /// Units allowed per period (a transaction of quantity 3 counts 3).
    public var count: Int
    /// The counting window.
    public var period: LimitPeriod

    /// Creates a limit.
    public init(count: Int, period: LimitPeriod) {
        self.count = count
        self.period = period
    }
}

/// A declared currency.
public struct CurrencyDefinition: Hashable, Sendable {
    /// Stable ID used in rewards and balances.
    public var id: String
    /// A display name for tools, optional.
    public var name: String?
}

/// A declared inventory item.
public struct ItemDefinition: Hashable, Sendable {
    /// Stable ID used in rewards and inventory.
    public var id: String
    /// A display name for tools, optional.
    public var name: String?
}

/// How to treat an entitlement while the ledger cannot be read.
public enum UnknownPolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Treat it as not owned (the default): never give away what may not be paid for.
    case failClosed
    /// Treat it as owned: never take away what may have been paid for.
    case failOpen
}

/// A declared entitlement.
public struct EntitlementDefinition: Hashable, Sendable {
    /// Stable ID, such as `remove_ads`.
    public var id: String
    /// A display name for tools, optional.
    public var name: String?
    /// How to treat it while ownership is unknown.
    public var unknownPolicy: UnknownPolicy = .failClosed
    /// Whether owning it turns ads off.
    public var removesAds = false
}

/// What one unit of a product grants.
public struct Rewards: Hashable, Sendable {
    /// Reward lines in the order they are applied: currencies, items, entitlements.
    public var lines: [GrantLine]

    /// Creates rewards from lines.
    public init(lines: [GrantLine]) { self.lines = lines }

    /// Whether nothing would be granted.
    public var isEmpty: Bool { lines.isEmpty }
}

/// A product players can buy, as designers declare it.
public struct Product: Hashable, Sendable {
    /// The catalog ID; stable across stores.
    public var id: String
    /// Consumable, non-consumable or auto-renewable subscription.
    public var kind: ProductKind
    /// The store's product ID on each store.
    public var storeProductIDs: [PlatformStore: String]
    /// What one unit grants; for an auto-renewable subscription, the entitlements it keeps
    /// active while subscribed.
    public var rewards: Rewards
    /// The purchase limit, if any (never on an auto-renewable subscription).
    public var limit: PurchaseLimit?
    /// A display name for tools, optional. Prices never appear in the catalog.
    public var name: String?
    /// For a consumable, what a refund takes back, and for an auto-renewable subscription what a
    /// refund of one period takes back of its period rewards (default `clawback`); `nil` for a
    /// non-consumable, whose entitlements are always removed by a refund.
    public var refundPolicy: RefundPolicy?
    /// For a non-consumable or an auto-renewable subscription, what a family member's shared copy
    /// grants (default `entitlementsOnly`); `nil` for a consumable, which Family Sharing never shares.
    public var familySharing: FamilySharingPolicy? = nil
    /// For an auto-renewable subscription, the store's subscription group it belongs to (the
    /// products a player can upgrade, downgrade and crossgrade between); nil otherwise.
    public var subscriptionGroup: String? = nil
    /// For an auto-renewable subscription, the currencies and items granted once per paid
    /// period; nil when it grants only its entitlements, and for other kinds.
    public var periodRewards: Rewards? = nil
    /// The Google Play purchase option (and offer) this product maps, when it maps one of its
    /// Play product's options to its own rewards; nil when it maps the Play product ID whole.
    /// Only the `playStore` mapping is qualified; the product's other store IDs map as usual.
    public var purchaseOption: StorePurchaseOption? = nil

    /// The purchase option `store`'s mapping of this product is qualified by: `purchaseOption`
    /// on Google Play, nil elsewhere.
    public func purchaseOption(on store: PlatformStore) -> StorePurchaseOption? {
        store == .playStore ? purchaseOption : nil
    }

    /// The reward lines a purchase grants: all of them, or for a family member's shared copy
    /// what `familySharing` allows (entitlements only when unset).
    public func grantLines(familyShared: Bool) -> [GrantLine] {
        let all = Rewards(lines: rewards.lines + (periodRewards?.lines ?? []))
        return familyShared ? (familySharing ?? .entitlementsOnly).lines(of: all) : all.lines
    }
}

/// The validated product catalog: currencies, items, entitlements and products.
///
/// Build one with `CatalogLoader.load(path:)` or `CatalogLoader.parse(_:)`, which
/// validate everything and report every problem at once.
public struct ProductCatalog: Hashable, Sendable {
    /// The only schema version this build reads.
    public static let schemaVersionSupported = 1

    /// The file's schema version.
    public var schemaVersion: Int
    /// Declared currencies.
    public var currencies: [CurrencyDefinition]
    /// Declared items.
    public var items: [ItemDefinition]
    /// Declared entitlements.
    public var entitlements: [EntitlementDefinition]
    /// Declared products.
    public var products: [Product]
    /// SHA-256 of the catalog file's bytes, recorded with every fulfillment.
    public var versionHash: String

    private var productsByStoreID: [StoreProductKey: Int]
    /// Products mapping one purchase option (or offer) of a store product.
    private var productsByOption: [OptionKey: Int]

    /// A store product ID qualified by a purchase option.
    private struct OptionKey: Hashable {
        var product: StoreProductKey
        var option: StorePurchaseOption
    }

    /// The Google Play product IDs of the catalog's `autoRenewable` products: the Play verifier
    /// reads these tokens with `purchases.subscriptionsv2.get`.
    public var playSubscriptionStoreProductIDs: Set<String> {
        Set(products.filter { $0.kind == .autoRenewable }.compactMap { $0.storeProductIDs[.playStore] })
    }
    private var productsByID: [String: Int]

    init(
        schemaVersion: Int, currencies: [CurrencyDefinition], items: [ItemDefinition],
        entitlements: [EntitlementDefinition], products: [Product], versionHash: String
    ) {
        self.schemaVersion = schemaVersion
        self.currencies = currencies
        self.items = items
        self.entitlements = entitlements
        self.products = products
        self.versionHash = versionHash
        var byStoreID: [StoreProductKey: Int] = [:]
        var byOption: [OptionKey: Int] = [:]
        var byID: [String: Int] = [:]
        for (index, product) in products.enumerated() {
            byID[product.id] = index
            for (store, storeProductID) in product.storeProductIDs {
                let key = StoreProductKey(store: store, storeProductID: storeProductID)
                if let option = product.purchaseOption(on: store) {
                    byOption[OptionKey(product: key, option: option)] = index
                } else {
                    byStoreID[key] = index
                }
            }
        }
        self.productsByStoreID = byStoreID
        self.productsByOption = byOption
        self.productsByID = byID
    }

    /// The product a store product ID maps to on a store, if any; a product mapping only one
    /// purchase option of it is not returned (see `product(store:storeProductID:purchaseOption:)`).
    public func product(store: PlatformStore, storeProductID: String) -> Product? {
        productsByStoreID[StoreProductKey(store: store, storeProductID: storeProductID)].map { products[$0] }
    }

    /// The product a purchase of `storeProductID` through `purchaseOption` grants: the one
    /// mapping its option and offer, else the one mapping its option, else the one mapping the
    /// store product ID whole; nil when none does.
    public func product(
        store: PlatformStore, storeProductID: String, purchaseOption: StorePurchaseOption?
    ) -> Product? {
        if let purchaseOption {
            let key = StoreProductKey(store: store, storeProductID: storeProductID)
            let candidates = purchaseOption.offerID == nil ? [purchaseOption] : [purchaseOption, purchaseOption.withoutOffer]
            for option in candidates {
                if let index = productsByOption[OptionKey(product: key, option: option)] { return products[index] }
            }
        }
        return product(store: store, storeProductID: storeProductID)
    }

    /// The product whose mapping on `store` is exactly `storeProductID` qualified by
    /// `purchaseOption` (nil: unqualified), with no fallback; for comparing two catalogs.
    public func product(
        store: PlatformStore, storeProductID: String, exactly purchaseOption: StorePurchaseOption?
    ) -> Product? {
        guard let purchaseOption else { return product(store: store, storeProductID: storeProductID) }
        let key = OptionKey(product: StoreProductKey(store: store, storeProductID: storeProductID), option: purchaseOption)
        return productsByOption[key].map { products[$0] }
    }

    /// The product with a catalog ID, if any.
    public func product(id: String) -> Product? {
        productsByID[id].map { products[$0] }
    }

    /// Whether a currency ID is declared.
    public func hasCurrency(_ id: String) -> Bool { currencies.contains { $0.id == id } }

    /// Whether an item ID is declared.
    public func hasItem(_ id: String) -> Bool { items.contains { $0.id == id } }

    /// Whether an entitlement ID is declared.
    public func hasEntitlement(_ id: String) -> Bool { entitlements.contains { $0.id == id } }

    /// The declaration of an entitlement, if any.
    public func entitlement(id: String) -> EntitlementDefinition? { entitlements.first { $0.id == id } }
}

extension ProductCatalog {
    /// This catalog with `extra` products appended, unchecked by the loader and with a version
    /// hash of its own; for the simulation, which maps store features the sample catalog does
    /// not. A product whose ID is already taken is left out.
    package func adding(_ extra: [Product]) -> ProductCatalog {
        let taken = Set(products.map(\.id))
        let added = extra.filter { !taken.contains($0.id) }
        let hash = SHA256.hexDigest(Array(([versionHash] + added.map(\.id)).joined(separator: "+").utf8))
        return ProductCatalog(
            schemaVersion: schemaVersion, currencies: currencies, items: items, entitlements: entitlements,
            products: products + added, versionHash: hash)
    }
}

extension ProductCatalog {
    /// This catalog with every product passed through `transform` (its ID kept), unchecked by the
    /// loader and with a version hash of its own, marked by `marker`; for the simulation.
    package func transformingProducts(marker: String, _ transform: (Product) -> Product) -> ProductCatalog {
        let transformed = products.map { product in
            var changed = transform(product)
            changed.id = product.id
            return changed
        }
        return ProductCatalog(
            schemaVersion: schemaVersion, currencies: currencies, items: items, entitlements: entitlements,
            products: transformed, versionHash: SHA256.hexDigest(Array("\(versionHash)+\(marker)".utf8)))
    }
}
