/// Decodes one product entry of the catalog, reporting every problem it has.
enum ProductDecoder {
    static func decode(_ value: JSONValue, at path: String, reader: inout CatalogReader) -> Product? {
        guard let object = reader.object(value, at: path, shape: CatalogFields.product) else { return nil }
        let id = object["id"].flatMap { reader.identifier($0, at: "\(path).id") }
        let kind = object["kind"].flatMap { reader.choice($0, at: "\(path).kind", of: ProductKind.allCases) }
        let name = object["name"].flatMap { reader.string($0, at: "\(path).name") }
        if let description = object["description"] { _ = reader.string(description, at: "\(path).description") }
        var storeIDs: [PlatformStore: String]?
        if let value = object["storeProductIDs"] {
            storeIDs = Self.storeProductIDs(value, at: "\(path).storeProductIDs", reader: &reader)
        }
        var rewards: Rewards?
        if let value = object["rewards"] { rewards = Self.rewards(value, at: "\(path).rewards", reader: &reader) }
        var limit: PurchaseLimit?
        var limitValid = true
        if let limitValue = object["limit"] {
            limit = decodeLimit(limitValue, at: "\(path).limit", reader: &reader)
            limitValid = limit != nil
        }
        var refundPolicy: RefundPolicy?
        var refundPolicyValid = true
        if let policyValue = object["refundPolicy"] {
            refundPolicy = reader.choice(policyValue, at: "\(path).refundPolicy", of: RefundPolicy.allCases)
            refundPolicyValid = refundPolicy != nil
            if kind == .nonConsumable {
                reader.report(
                    "\(path).refundPolicy",
                    "refundPolicy applies to consumables and autoRenewable subscriptions only; a refunded nonConsumable always loses its entitlements",
                    at: policyValue)
                refundPolicyValid = false
            }
        }
        var familySharing: FamilySharingPolicy?
        var familySharingValid = true
        if let sharingValue = object["familySharing"] {
            familySharing = reader.choice(sharingValue, at: "\(path).familySharing", of: FamilySharingPolicy.allCases)
            familySharingValid = familySharing != nil
            if kind == .consumable {
                reader.report(
                    "\(path).familySharing",
                    "familySharing applies to nonConsumables and autoRenewable subscriptions only; Family Sharing never shares a consumable",
                    at: sharingValue)
                familySharingValid = false
            }
        }
        let subscription = subscriptionFields(object, kind: kind, rewards: rewards, at: path, reader: &reader)
        var purchaseOption: StorePurchaseOption?
        var purchaseOptionValid = true
        if let optionValue = object["playPurchaseOption"] {
            purchaseOption = Self.purchaseOption(
                optionValue, at: "\(path).playPurchaseOption", kind: kind, storeIDs: storeIDs, reader: &reader)
            purchaseOptionValid = purchaseOption != nil
        }
        var storesValid = true
        if kind == .autoRenewable, let storeIDs, let steamID = storeIDs[.steam] {
            // Steam's recurring billing (agreements) is not ledger-verified: a subscription sold
            // there would have no period facts, so it could never be granted.
            reader.report(
                "\(path).storeProductIDs.steam",
                "Steam item \(steamID) cannot be an autoRenewable subscription: the ledger sells one-time items on Steam; map the subscription on other stores",
                at: object["storeProductIDs"] ?? value)
            storesValid = false
        }
        guard let id, let kind, let storeIDs, let rewards, limitValid, refundPolicyValid, familySharingValid,
            subscription.valid, purchaseOptionValid, storesValid
        else {
            return nil
        }
        if kind == .nonConsumable, !rewards.lines.contains(where: { $0.kind == .entitlement }) {
            reader.report(
                "\(path).rewards.entitlements",
                "a nonConsumable product must grant at least one entitlement; that is how ownership is kept",
                at: object["rewards"])
            return nil
        }
        return Product(
            id: id, kind: kind, storeProductIDs: storeIDs, rewards: rewards, limit: limit, name: name,
            refundPolicy: kind == .nonConsumable ? nil : (refundPolicy ?? .clawback),
            familySharing: kind == .consumable ? nil : (familySharing ?? .entitlementsOnly),
            subscriptionGroup: subscription.group, periodRewards: subscription.periodRewards, purchaseOption: purchaseOption)
    }

    /// The Google Play purchase option (and offer) at `path`: valid IDs, on a one-time product
    /// the catalog sells on Google Play.
    private static func purchaseOption(
        _ value: JSONValue, at path: String, kind: ProductKind?, storeIDs: [PlatformStore: String]?,
        reader: inout CatalogReader
    ) -> StorePurchaseOption? {
        guard let object = reader.object(value, at: path, shape: CatalogFields.playPurchaseOption) else { return nil }
        var valid = true
        func identifier(_ key: String) -> String? {
            guard let member = object[key], let text = reader.string(member, at: "\(path).\(key)") else { return nil }
            guard StorePurchaseOption.isValidIdentifier(text) else {
                reader.report(
                    "\(path).\(key)",
                    "\"\(text)\" is not a Google Play \(key == "offerID" ? "offer" : "purchase option") ID (1 to \(StorePurchaseOption.identifierByteCountMax) lowercase letters, digits and hyphens, starting with a letter or digit)",
                    at: member)
                valid = false
                return nil
            }
            return text
        }
        let optionID = identifier("purchaseOptionID")
        let offerID = object["offerID"] == nil ? nil : identifier("offerID")
        if kind == .autoRenewable {
            reader.report(
                path,
                "playPurchaseOption applies to one-time products only; a subscription is mapped by its product ID, whatever its base plan or offer",
                at: value)
            valid = false
        }
        if let storeIDs, storeIDs[.playStore] == nil {
            reader.report(
                path, "playPurchaseOption qualifies the product's Google Play ID: map the product on playStore too", at: value)
            valid = false
        }
        guard valid, let optionID else { return nil }
        return StorePurchaseOption(purchaseOptionID: optionID, offerID: offerID)
    }

    private static func storeProductIDs(
        _ value: JSONValue, at path: String, reader: inout CatalogReader
    ) -> [PlatformStore: String]? {
        let stores = Set(PlatformStore.known.map(\.rawValue))
        guard let object = reader.object(value, at: path, shape: CatalogFields.storeProductIDs) else { return nil }
        var result: [PlatformStore: String] = [:]
        var valid = true
        for member in object.members where stores.contains(member.key) {
            if let id = reader.storeProductID(member.value, at: "\(path).\(member.key)") {
                if member.key == PlatformStore.steam.rawValue, !isSteamItemID(id) {
                    reader.report(
                        "\(path).steam",
                        "\"\(id)\" is not a Steam item ID: a whole number from 1 to 4294967295 (InitTxn's 32-bit itemid), without leading zeros",
                        at: member.value)
                    valid = false
                    continue
                }
                result[PlatformStore(rawValue: member.key)] = id
            } else {
                valid = false
            }
        }
        if object.members.isEmpty {
            reader.report(path, "map the product to at least one store (appStore, playStore, stripe, steam or test)", at: value)
            return nil
        }
        return valid ? result : nil
    }

    /// Whether `id` is a Steam item ID: InitTxn's `itemid` is an unsigned 32-bit number, not 0.
    static func isSteamItemID(_ id: String) -> Bool {
        guard (1...10).contains(id.utf8.count), id.utf8.allSatisfy({ (0x30...0x39).contains($0) }), id.utf8.first != 0x30,
            let number = UInt64(id)
        else { return false }
        return number <= UInt64(UInt32.max)
    }

    /// The rewards at `path`; `emptyMessage` is reported when they grant nothing.
    static func rewards(
        _ value: JSONValue, at path: String, reader: inout CatalogReader,
        emptyMessage: String = "rewards are empty: a purchase must grant at least one currency, item or entitlement"
    ) -> Rewards? {
        guard let object = reader.object(value, at: path, shape: CatalogFields.rewards) else {
            return nil
        }
        var lines: [GrantLine] = []
        var valid = true
        for (kind, key) in [(AssetKind.currency, "currencies"), (.item, "items")] {
            guard let listValue = object[key] else { continue }
            guard let parsed = amountLines(listValue, kind: kind, at: "\(path).\(key)", reader: &reader) else {
                valid = false
                continue
            }
            lines += parsed
        }
        if let listValue = object["entitlements"] {
            if let elements = reader.array(
                listValue, at: "\(path).entitlements", countMax: CatalogLoader.Limits.rewardLineCountMax)
            {
                for (index, element) in elements.enumerated() {
                    if let id = reader.identifier(element, at: "\(path).entitlements[\(index)]") {
                        lines.append(GrantLine(kind: .entitlement, id: id, quantity: 1))
                    } else {
                        valid = false
                    }
                }
            } else {
                valid = false
            }
        }
        guard valid else { return nil }
        if lines.isEmpty {
            reader.report(path, emptyMessage, at: value)
            return nil
        }
        return Rewards(lines: lines)
    }

    private static func amountLines(
        _ value: JSONValue, kind: AssetKind, at path: String, reader: inout CatalogReader
    ) -> [GrantLine]? {
        guard let elements = reader.array(value, at: path, countMax: CatalogLoader.Limits.rewardLineCountMax) else {
            return nil
        }
        let shape = kind == .currency ? CatalogFields.currencyLine : CatalogFields.itemLine
        let amountKey = kind == .currency ? "amount" : "quantity"
        var lines: [GrantLine] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let object = reader.object(element, at: elementPath, shape: shape) else {
                valid = false
                continue
            }
            let id = object["id"].flatMap { reader.identifier($0, at: "\(elementPath).id") }
            let amount = object[amountKey].flatMap {
                reader.integer(
                    $0, at: "\(elementPath).\(amountKey)", range: 1...CatalogLoader.Limits.rewardAmountMax,
                    what: amountKey)
            }
            if let id, let amount { lines.append(GrantLine(kind: kind, id: id, quantity: amount)) } else { valid = false }
        }
        return valid ? lines : nil
    }

    private static func decodeLimit(_ value: JSONValue, at path: String, reader: inout CatalogReader) -> PurchaseLimit? {
        guard let object = reader.object(value, at: path, shape: CatalogFields.limit) else { return nil }
        let count = object["count"].flatMap {
            reader.integer($0, at: "\(path).count", range: 0...CatalogLoader.Limits.limitCountMax, what: "count")
        }
        let period = object["per"].flatMap { reader.choice($0, at: "\(path).per", of: LimitPeriod.allCases) }
        guard let count, let period else { return nil }
        return PurchaseLimit(count: Int(count), period: period)
    }
}
