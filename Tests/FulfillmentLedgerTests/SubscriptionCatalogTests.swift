import Foundation
import FulfillmentLedger
import Testing

/// Auto-renewable subscriptions in the catalog: the loader's rules, each refused at its path,
/// lint, `catalog explain` and `catalog diff`. The schema fixtures run in `CatalogSchemaTests`.
struct SubscriptionCatalogTests {
    typealias Fixtures = SubscriptionCatalogFixtures

    static func load(_ products: String...) throws -> ProductCatalog {
        try CatalogLoader.parse(Array(Fixtures.catalog(products.joined(separator: ",\n")).utf8))
    }

    static func problems(_ products: String...) -> [CatalogProblem] {
        CatalogTests.problems(Fixtures.catalog(products.joined(separator: ",\n")))
    }

    /// Whether a problem at exactly `path` says `text`.
    static func has(_ problems: [CatalogProblem], _ path: String, _ text: String) -> Bool {
        problems.contains { $0.path == path && $0.message.contains(text) && $0.severity == .error }
    }

    static let consumable = """
        { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "t.gems" },
          "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] } }
        """

    static let lifetimePass = """
        { "id": "battle_pass_forever", "kind": "nonConsumable", "storeProductIDs": { "test": "t.bp.forever" },
          "rewards": { "entitlements": ["battle_pass"] } }
        """

    @Test func theBattlePassLoadsWithItsGroupEntitlementAndPeriodRewards() throws {
        let product = try #require(try Self.load(Fixtures.battlePass()).product(id: "battle_pass_monthly"))
        #expect(product.kind == .autoRenewable)
        #expect(product.subscriptionGroup == "battle_pass")
        #expect(product.rewards.lines == [GrantLine(kind: .entitlement, id: "battle_pass", quantity: 1)])
        #expect(
            product.periodRewards?.lines == [
                GrantLine(kind: .currency, id: "gems", quantity: 500), GrantLine(kind: .item, id: "bp_token", quantity: 1),
            ])
        #expect(product.limit == nil)
        #expect(product.refundPolicy == .clawback)
        #expect(product.familySharing == .entitlementsOnly)
        #expect(product.grantLines(familyShared: false).map(\.id) == ["battle_pass", "gems", "bp_token"])
        #expect(product.grantLines(familyShared: true).map(\.id) == ["battle_pass"])
    }

    @Test func refundPolicyAndFamilySharingAreAllowedWithTheirDefaults() throws {
        let plain = try #require(try Self.load(Fixtures.battlePass(periodRewards: nil)).product(id: "battle_pass_monthly"))
        #expect(plain.periodRewards == nil)
        #expect(plain.refundPolicy == .clawback)
        #expect(plain.familySharing == .entitlementsOnly)
        let chosen = try #require(
            try Self.load(Fixtures.battlePass(extra: #""refundPolicy": "floor", "familySharing": "allRewards""#))
                .product(id: "battle_pass_monthly"))
        #expect(chosen.refundPolicy == .floor)
        #expect(chosen.familySharing == .allRewards)
        #expect(chosen.grantLines(familyShared: true).map(\.id) == ["battle_pass", "gems", "bp_token"])
        let consumable = try #require(try Self.load(Self.consumable).product(id: "gems_small"))
        #expect(consumable.subscriptionGroup == nil && consumable.periodRewards == nil)
    }

    @Test func aSubscriptionMustNameAValidGroup() {
        let missing = Self.problems(Fixtures.battlePass(group: nil))
        #expect(Self.has(missing, "$.products[0].subscriptionGroup", "must name its subscriptionGroup"))
        let notAnID = Self.problems(Fixtures.battlePass(group: #""battle pass""#))
        #expect(Self.has(notAnID, "$.products[0].subscriptionGroup", #""battle pass" is not a valid ID"#))
        let notText = Self.problems(Fixtures.battlePass(group: "7"))
        #expect(Self.has(notText, "$.products[0].subscriptionGroup", "must be a string"))
        // A misspelt key is one mistake, reported once with its fix.
        let typo = Self.problems(Fixtures.battlePass(group: nil, extra: #""subscriptionGrop": "battle_pass""#))
        #expect(typo.count == 1)
        #expect(Self.has(typo, "$.products[0].subscriptionGrop", #"did you mean "subscriptionGroup"?"#))
    }

    @Test func otherKindsRefuseSubscriptionGroupAndPeriodRewards() {
        for (kind, rewards) in [
            ("consumable", #"{ "currencies": [{ "id": "gems", "amount": 100 }] }"#),
            ("nonConsumable", #"{ "entitlements": ["remove_ads"] }"#),
        ] {
            let product = """
                { "id": "p", "kind": "\(kind)", "storeProductIDs": { "test": "t.p" }, "rewards": \(rewards),
                  "subscriptionGroup": "battle_pass", "periodRewards": { "currencies": [{ "id": "gems", "amount": 5 }] } }
                """
            let problems = Self.problems(product)
            let path = "$.products[0]"
            #expect(Self.has(problems, "\(path).subscriptionGroup", "subscriptions only; a \(kind) belongs to no group"))
            #expect(Self.has(problems, "\(path).periodRewards", "subscriptions only; a \(kind) grants everything"))
        }
    }

    @Test func aSubscriptionsRewardsAreEntitlementsOnly() {
        let withCurrency = #"{ "entitlements": ["battle_pass"], "currencies": [{ "id": "gems", "amount": 1 }] }"#
        let currencies = Self.problems(Fixtures.battlePass(rewards: withCurrency))
        #expect(Self.has(currencies, "$.products[0].rewards.currencies", "grant currencies once per paid period under periodRewards"))
        let items = Self.problems(Fixtures.battlePass(rewards: #"{ "items": [{ "id": "bp_token", "quantity": 1 }] }"#))
        #expect(Self.has(items, "$.products[0].rewards.items", "grant items once per paid period under periodRewards"))
        #expect(Self.has(items, "$.products[0].rewards.entitlements", "must grant at least one entitlement"))
        let empty = Self.problems(Fixtures.battlePass(rewards: "{}"))
        #expect(Self.has(empty, "$.products[0].rewards", "rewards are empty"))
    }

    @Test func periodRewardsAreCurrenciesAndItemsAndNotEmpty() {
        let withEntitlement = #"{ "entitlements": ["remove_ads"], "items": [{ "id": "bp_token", "quantity": 1 }] }"#
        let entitlements = Self.problems(Fixtures.battlePass(periodRewards: withEntitlement))
        #expect(Self.has(entitlements, "$.products[0].periodRewards.entitlements", "entitlements are not period rewards"))
        let empty = Self.problems(Fixtures.battlePass(periodRewards: "{}"))
        #expect(Self.has(empty, "$.products[0].periodRewards", "periodRewards are empty"))
        let emptyList = Self.problems(Fixtures.battlePass(periodRewards: #"{ "currencies": [] }"#))
        #expect(Self.has(emptyList, "$.products[0].periodRewards", "periodRewards are empty"))
        let notObject = Self.problems(Fixtures.battlePass(periodRewards: "[]"))
        #expect(Self.has(notObject, "$.products[0].periodRewards", "must be an object"))
        let unknownField = Self.problems(Fixtures.battlePass(periodRewards: #"{ "gems": 5 }"#))
        #expect(Self.has(unknownField, "$.products[0].periodRewards.gems", "unknown field"))
        let zero = Self.problems(Fixtures.battlePass(periodRewards: #"{ "currencies": [{ "id": "gems", "amount": 0 }] }"#))
        #expect(Self.has(zero, "$.products[0].periodRewards.currencies[0].amount", "amount 0 is too small"))
    }

    @Test func periodRewardsReferToDeclaredIDsOnce() {
        let undeclared = #"{ "currencies": [{ "id": "rubies", "amount": 5 }], "items": [{ "id": "crown", "quantity": 1 }] }"#
        let unknown = Self.problems(Fixtures.battlePass(periodRewards: undeclared))
        #expect(Self.has(unknown, "$.products[0].periodRewards.currencies[0].id", #"unknown currency "rubies""#))
        #expect(Self.has(unknown, "$.products[0].periodRewards.items[0].id", #"unknown item "crown""#))
        let repeated = #"{ "items": [{ "id": "bp_token", "quantity": 1 }, { "id": "bp_token", "quantity": 2 }] }"#
        let twice = Self.problems(Fixtures.battlePass(periodRewards: repeated))
        #expect(Self.has(twice, "$.products[0].periodRewards.items[1].id", #"item "bp_token" is listed twice"#))
        let unknownEntitlement = Self.problems(Fixtures.battlePass(rewards: #"{ "entitlements": ["vip"] }"#))
        #expect(Self.has(unknownEntitlement, "$.products[0].rewards.entitlements[0]", #"unknown entitlement "vip""#))
    }

    @Test func aSubscriptionHasNoPurchaseLimit() {
        let problems = Self.problems(Fixtures.battlePass(extra: #""limit": { "count": 1, "per": "lifetime" }"#))
        #expect(Self.has(problems, "$.products[0].limit", "one subscription per group at a time"))
    }

    @Test func refundPolicyStaysRefusedOnANonConsumableAndFamilySharingOnAConsumable() {
        let nonConsumable = """
            { "id": "ads", "kind": "nonConsumable", "storeProductIDs": { "test": "t.ads" },
              "rewards": { "entitlements": ["remove_ads"] }, "refundPolicy": "floor" }
            """
        let refund = Self.problems(nonConsumable)
        #expect(Self.has(refund, "$.products[0].refundPolicy", "consumables and autoRenewable subscriptions only"))
        let consumable = Self.consumable.replacingOccurrences(
            of: #""kind": "consumable","#, with: #""kind": "consumable", "familySharing": "allRewards","#)
        let sharing = Self.problems(consumable)
        #expect(Self.has(sharing, "$.products[0].familySharing", "nonConsumables and autoRenewable subscriptions only"))
        let unknownPolicy = Self.problems(Fixtures.battlePass(extra: #""refundPolicy": "keep""#))
        #expect(Self.has(unknownPolicy, "$.products[0].refundPolicy", #""keep" is not allowed"#))
    }

    @Test func everyBrokenRuleIsReportedAtOnce() {
        let product = Fixtures.battlePass(
            group: nil, rewards: #"{ "entitlements": ["battle_pass"], "items": [{ "id": "bp_token", "quantity": 1 }] }"#,
            periodRewards: #"{ "entitlements": ["battle_pass"] }"#, extra: #""limit": { "count": 1, "per": "week" }"#)
        let grouped = Self.consumable.replacingOccurrences(of: #""rewards""#, with: #""subscriptionGroup": "g", "rewards""#)
        let problems = Self.problems(product, grouped)
        #expect(Self.has(problems, "$.products[0].subscriptionGroup", "must name its subscriptionGroup"))
        #expect(Self.has(problems, "$.products[0].rewards.items", "under periodRewards"))
        #expect(Self.has(problems, "$.products[0].periodRewards.entitlements", "not period rewards"))
        #expect(Self.has(problems, "$.products[0].limit", "one subscription per group"))
        #expect(Self.has(problems, "$.products[1].subscriptionGroup", "autoRenewable subscriptions only"))
        #expect(problems.count == 5)
    }

    @Test func tiersOfOneGroupAreValidAndNotFlaggedAsCopies() throws {
        let yearly = Fixtures.battlePass(id: "battle_pass_yearly", storeID: "t.bp.yearly")
        let result = CatalogLoader.check(Array(Fixtures.catalog(Fixtures.battlePass(), yearly).utf8))
        #expect(result.errors.isEmpty)
        #expect(result.catalog?.products.map(\.subscriptionGroup) == ["battle_pass", "battle_pass"])
        #expect(result.warnings.isEmpty)
        let otherGroup = Fixtures.battlePass(id: "vip_monthly", storeID: "t.vip", group: #""vip""#)
        let copies = CatalogLoader.check(Array(Fixtures.catalog(Fixtures.battlePass(), otherGroup).utf8))
        #expect(copies.warnings.contains { $0.path == "$.products[1].rewards" && $0.message.contains("copy-paste") })
    }

    @Test func lintFlagsASubscriptionThatOnlyRepeatsANonConsumablesEntitlement() {
        let bareText = Fixtures.catalog(Self.lifetimePass, Fixtures.battlePass(periodRewards: nil))
        let bare = CatalogLoader.check(Array(bareText.utf8))
        #expect(bare.errors.isEmpty)
        #expect(
            bare.warnings.contains {
                $0.path == "$.products[1].rewards.entitlements" && $0.severity == .warning
                    && $0.message.contains("no periodRewards and grants entitlement battle_pass")
                    && $0.message.contains("nonConsumable battle_pass_forever")
            })
        let withPeriods = CatalogLoader.check(Array(Fixtures.catalog(Self.lifetimePass, Fixtures.battlePass()).utf8))
        #expect(withPeriods.errors.isEmpty)
        #expect(!withPeriods.warnings.contains { $0.message.contains("no periodRewards") })
        let huge = Fixtures.battlePass(periodRewards: #"{ "currencies": [{ "id": "gems", "amount": 5000000 }] }"#)
        let bound = CatalogLoader.check(Array(Fixtures.catalog(huge).utf8))
        #expect(bound.warnings.contains { $0.path == "$.products[0].periodRewards" && $0.message.contains("sanity bound") })
    }

    /// A subscription mapped to Google Play is fulfilled there, so it draws no warning, and its
    /// Play ID is among those the Play verifier reads as subscriptions.
    @Test func aSubscriptionMappedToGooglePlayIsAPlaySubscription() throws {
        var text = Fixtures.catalog(Fixtures.battlePass())
        text = text.replacingOccurrences(of: #"{ "test": "t.bp.monthly" }"#, with: #"{ "test": "t.bp.monthly", "playStore": "bp_monthly" }"#)
        let mapped = CatalogLoader.check(Array(text.utf8))
        #expect(mapped.errors.isEmpty)
        #expect(!mapped.warnings.contains { $0.path.hasSuffix("storeProductIDs.playStore") }, "\(mapped.warnings)")
        #expect(try CatalogLoader.parse(Array(text.utf8)).playSubscriptionStoreProductIDs == ["bp_monthly"])
        #expect(try Self.load(Fixtures.battlePass()).playSubscriptionStoreProductIDs.isEmpty)
    }
}

/// `catalog explain` and `catalog diff` of subscriptions.
extension SubscriptionCatalogTests {
    @Test func explainShowsTheGroupTheEntitlementsAndWhatEachPeriodGrants() throws {
        let catalog = try Self.load(Fixtures.battlePass())
        let product = try #require(catalog.product(id: "battle_pass_monthly"))
        let explained = ProductExplanation(product: product, catalog: catalog)
        #expect(explained.kind == .autoRenewable)
        #expect(explained.subscriptionGroup == "battle_pass")
        #expect(explained.grants.map(\.id) == ["battle_pass"])
        #expect(explained.periodGrants?.map(\.id) == ["gems", "bp_token"])
        #expect(explained.lines.first == "battle_pass_monthly: autoRenewable")
        #expect(explained.lines.contains { $0.hasPrefix("subscription group: battle_pass;") })
        let period = try #require(explained.lines.firstIndex(of: "each paid period grants:"))
        #expect(explained.lines[period + 1] == "  - 500 gems (currency), once per period, renewals included")
        #expect(explained.lines[period + 2] == "  - 1 x bp_token (item), once per period, renewals included")
        #expect(explained.lines.contains { $0.hasPrefix("  - entitlement battle_pass, active while the subscription is paid") })
        #expect(explained.lines.contains("limit: none; the store sells one subscription per group at a time"))
        #expect(explained.lines.contains { $0.hasPrefix("refund of a period: claw back exactly what that period granted") })
        #expect(explained.lines.contains { $0.hasPrefix("family sharing: ") && $0.contains("no period rewards") })
        #expect(!explained.lines.contains("one purchase grants:"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(explained)) as? [String: Any])
        #expect(json["subscriptionGroup"] as? String == "battle_pass")
        #expect((json["periodGrants"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["gems", "bp_token"])
        #expect(json["familySharing"] as? String == "entitlementsOnly")
        #expect(try JSONDecoder().decode(ProductExplanation.self, from: encoder.encode(explained)) == explained)
        let bare = try Self.load(Fixtures.battlePass(periodRewards: nil))
        let bareProduct = try #require(bare.product(id: "battle_pass_monthly"))
        let bareLines = ProductExplanation(product: bareProduct, catalog: bare).lines
        #expect(bareLines.contains("each paid period grants: nothing more"))
        let pack = try Self.load(Self.consumable)
        let packProduct = try #require(pack.product(id: "gems_small"))
        let packJSON = try encoder.encode(ProductExplanation(product: packProduct, catalog: pack))
        #expect(!String(decoding: packJSON, as: UTF8.self).contains("subscriptionGroup"))
    }

    @Test func aChangeOfPeriodRewardsIsSafe() throws {
        let old = try Self.load(Fixtures.battlePass())
        let new = try Self.load(Fixtures.battlePass(periodRewards: #"{ "currencies": [{ "id": "gems", "amount": 800 }] }"#))
        let report = CatalogDiff.compare(old: old, new: new, ledger: nil)
        #expect(report.changes.map(\.kind) == [.periodRewardsChanged])
        let change = try #require(report.changes.first)
        #expect(change.severity == .safe)
        #expect(change.productID == "battle_pass_monthly")
        #expect(change.message.contains("[currency:gems x800] instead of [currency:gems x500, item:bp_token x1]"))
        #expect(change.message.contains("periods already granted keep what their record says"))
        let removed = CatalogDiff.compare(old: old, new: try Self.load(Fixtures.battlePass(periodRewards: nil)), ledger: nil)
        #expect(removed.changes.map(\.kind) == [.periodRewardsChanged])
        #expect(removed.severity == .safe)
    }

    @Test func aChangeOfSubscriptionGroupIsDangerousUnlessNeverSold() throws {
        let old = try Self.load(Fixtures.battlePass())
        let new = try Self.load(Fixtures.battlePass(group: #""season_pass""#))
        let report = CatalogDiff.compare(old: old, new: new, ledger: nil)
        #expect(report.changes.map(\.kind) == [.subscriptionGroupChanged])
        let change = try #require(report.changes.first)
        #expect(change.severity == .dangerous && change.dangerous && report.isDangerous)
        #expect(change.message.contains("from subscription group battle_pass to season_pass"))
        let sold = CatalogDiff.compare(old: old, new: new, saleCounts: ["battle_pass_monthly": 3])
        #expect(sold.changes.first?.severity == .dangerous)
        #expect(sold.changes.first?.soldCount == 3)
        let neverSold = CatalogDiff.compare(old: old, new: new, saleCounts: [:])
        #expect(neverSold.changes.first?.severity == .safe)
    }

    @Test func aKindChangeToASubscriptionIsOneKindChangedLine() throws {
        let old = try Self.load(Self.lifetimePass)
        let new = try Self.load(Fixtures.battlePass(id: "battle_pass_forever", storeID: "t.bp.forever"))
        let kinds = CatalogDiff.compare(old: old, new: new, ledger: nil).changes.map(\.kind)
        #expect(kinds.contains(.kindChanged))
        #expect(!kinds.contains(.subscriptionGroupChanged) && !kinds.contains(.periodRewardsChanged))
        #expect(!kinds.contains(.familySharingChanged))
    }

    @Test func refundPolicyAndFamilySharingChangesOfASubscriptionAreSafe() throws {
        let old = try Self.load(Fixtures.battlePass())
        let new = try Self.load(Fixtures.battlePass(extra: #""refundPolicy": "floor", "familySharing": "allRewards""#))
        let changes = CatalogDiff.compare(old: old, new: new, ledger: nil).changes
        #expect(changes.map(\.kind) == [.refundPolicyChanged, .familySharingChanged])
        #expect(changes.allSatisfy { $0.severity == .safe })
    }

    @Test func theSchemaFixturesAreWhatTheLoaderSaysTheyAre() {
        for (name, text) in Fixtures.validSchemaFixtures {
            #expect(CatalogTests.problems(text).isEmpty, "valid fixture \(name)")
        }
        for (name, text) in Fixtures.invalidSchemaFixtures {
            #expect(!CatalogTests.problems(text).isEmpty, "invalid fixture \(name)")
            #expect(text != Fixtures.sampleWithSubscription, "fixture \(name) changed nothing")
        }
        #expect(Fixtures.sampleWithSubscription.contains(#""kind": "autoRenewable""#))
    }
}
