import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// Lint warnings, the safe-change diff, explain and hot reload.
@Suite struct CatalogToolingTests {
    static let sample = (try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)) ?? ""

    static func catalog(_ text: String) throws -> ProductCatalog { try CatalogLoader.parse(Array(text.utf8)) }

    @Test func sampleCatalogHasNoWarnings() {
        let result = CatalogLoader.check(Array(Self.sample.utf8))
        #expect(result.catalog != nil)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func suspiciousValuesAreWarningsNotErrors() throws {
        let text = Self.sample
            .replacingOccurrences(of: #""amount": 1200 }"#, with: #""amount": 12000000 }"#)
            .replacingOccurrences(of: #""per": "week""#, with: #""per": "week", "count_": 0"#)
            .replacingOccurrences(of: #""limit": { "count": 1, "per": "lifetime" }"#, with: #""limit": { "count": 0, "per": "lifetime" }"#)
            .replacingOccurrences(
                of: #""rewards": { "currencies": [{ "id": "coins", "amount": 5000 }] }"#,
                with: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }], "entitlements": ["remove_ads"] }"#)
            .replacingOccurrences(of: #", "count_": 0"#, with: "")
        let withDuplicate = text.replacingOccurrences(
            of: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }], "entitlements": ["remove_ads"] }"#,
            with: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }"#)
        let result = CatalogLoader.check(Array(text.utf8), lint: .init(amountWarningThreshold: 1_000_000))
        #expect(result.catalog != nil, "warnings never make a catalog invalid: \(result.errors)")
        let warningPaths = Set(result.warnings.map(\.path))
        #expect(warningPaths.contains("$.products[1].rewards"))  // amount above the bound
        #expect(warningPaths.contains("$.products[3].limit.count"))  // limit of 0
        #expect(warningPaths.contains("$.products[2].rewards.entitlements"))  // consumable grants an entitlement
        #expect(result.warnings.allSatisfy { $0.severity == .warning && $0.line != nil })
        let duplicate = CatalogLoader.check(Array(withDuplicate.utf8))
        #expect(duplicate.warnings.contains { $0.path == "$.products[2].rewards" && $0.message.contains("gems_small") })
        let strict = CatalogLoader.check(Array(Self.sample.utf8), lint: .init(amountWarningThreshold: 1_000))
        #expect(strict.warnings.count == 4, "1200 gems, 3600 gems, 5000 coins and 10000 coins are above 1000: \(strict.warnings)")
    }

    @Test func catalogBrokenInEightWaysGivesEightLocatedErrors() {
        let text = Self.sample
            .replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": 3"#)  // 1
            .replacingOccurrences(of: #"{ "id": "gems", "amount": 100 }"#, with: #"{ "id": "gems", "ammount": 100 }"#)  // 2
            .replacingOccurrences(of: #""amount": 1200"#, with: #""amount": 0"#)  // 3
            .replacingOccurrences(of: #"{ "id": "coins", "amount": 5000 }"#, with: #"{ "id": "rubies", "amount": 5000 }"#)  // 4
            .replacingOccurrences(of: #""playStore": "starter_bundle""#, with: #""playStore": "gems_large""#)  // 5
            .replacingOccurrences(of: #""id": "weekly_offer""#, with: #""id": "gems_small""#)  // 6
            .replacingOccurrences(of: #""per": "week""#, with: #""per": "fortnight""#)  // 7
            .replacingOccurrences(
                of: #""name": "Remove Ads",\#n      "kind": "nonConsumable""#,
                with: #""name": "Remove Ads",\#n      "kind": "permanent""#)  // 8
        let result = CatalogLoader.check(Array(text.utf8))
        #expect(result.catalog == nil)
        #expect(result.errors.count == 8, "\(result.errors.map(\.description))")
        #expect(result.errors.allSatisfy { $0.line != nil && $0.column != nil })
    }

    @Test func diffFlagsDangerousChangesAndExplainsSafeOnes() throws {
        let old = try Self.catalog(Self.sample)
        let renamed = try Self.catalog(Self.sample.replacingOccurrences(of: #""id": "gems_large""#, with: #""id": "gems_chest""#))
        let report = CatalogDiff.compare(old: old, new: renamed, saleCounts: ["gems_large": 7])
        let rename = try #require(report.changes.first { $0.kind == .productRenamed })
        #expect(rename.dangerous && rename.soldCount == 7 && rename.message.contains("7 time(s)"))
        #expect(report.isDangerous)

        let neverSold = CatalogDiff.compare(old: old, new: renamed, saleCounts: [:])
        #expect(!neverSold.isDangerous, "renaming a product never sold is safe")

        let richer = try Self.catalog(Self.sample.replacingOccurrences(of: #""amount": 5000"#, with: #""amount": 6000"#))
        let rewards = CatalogDiff.compare(old: old, new: richer, saleCounts: ["coins_pack": 3])
        #expect(!rewards.isDangerous)
        #expect(rewards.changes.map(\.kind) == [.rewardsChanged])
        #expect(rewards.changes.first?.message.contains("past purchases keep what they granted") == true)

        let lowered = try Self.catalog(Self.sample.replacingOccurrences(of: #""count": 1, "per": "week""#, with: #""count": 0, "per": "week""#))
        let limit = CatalogDiff.compare(old: old, new: lowered, saleCounts: nil)
        #expect(limit.changes.first?.message.contains("never blocks a payment already made") == true)
        #expect(!limit.isDangerous)
    }

    @Test func diffFlagsRemovalRemapAndKindSwitch() throws {
        let old = try Self.catalog(Self.sample)
        let remapped = try Self.catalog(
            Self.sample.replacingOccurrences(of: #""test": "test.gems_large""#, with: #""test": "test.gems_large_old""#)
                .replacingOccurrences(of: #""test": "test.coins_pack""#, with: #""test": "test.gems_large""#))
        let remap = CatalogDiff.compare(old: old, new: remapped, saleCounts: nil)
        #expect(remap.changes.contains { $0.kind == .storeIDRemapped && $0.dangerous && $0.productID == "gems_large" })

        var withoutWeekly = Self.sample
        let start = try #require(withoutWeekly.range(of: #"    {\#n      "id": "weekly_offer""#))
        let end = try #require(withoutWeekly.range(of: #"    {\#n      "id": "remove_ads""#, range: start.upperBound..<withoutWeekly.endIndex))
        withoutWeekly.removeSubrange(start.lowerBound..<end.lowerBound)
        let removed = CatalogDiff.compare(old: old, new: try Self.catalog(withoutWeekly), saleCounts: ["weekly_offer": 2])
        let removal = try #require(removed.changes.first { $0.kind == .productRemoved })
        #expect(removal.productID == "weekly_offer" && removal.dangerous && removal.soldCount == 2)
        #expect(CatalogDiff.compare(old: old, new: try Self.catalog(withoutWeekly), saleCounts: nil).isDangerous,
            "without a ledger a removal may have been sold")

        let switched = try Self.catalog(
            Self.sample.replacingOccurrences(
                of: #""kind": "consumable",\#n      "storeProductIDs": {\#n        "appStore": "com.kibblestreet.td.gems.small""#,
                with: #""kind": "nonConsumable",\#n      "storeProductIDs": {\#n        "appStore": "com.kibblestreet.td.gems.small""#
            ).replacingOccurrences(
                of: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }"#,
                with: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }], "entitlements": ["remove_ads"] }"#))
        let kind = CatalogDiff.compare(old: old, new: switched, saleCounts: [:])
        #expect(kind.changes.contains { $0.kind == .kindChanged && $0.dangerous })
    }

    @Test func explainSaysWhatAPurchaseGrants() throws {
        let catalog = try Self.catalog(Self.sample)
        let product = try #require(catalog.product(id: "weekly_offer"))
        let explanation = ProductExplanation(product: product, catalog: catalog)
        #expect(explanation.grants == product.rewards.lines)
        #expect(explanation.lines.contains { $0.contains("1 per week") && $0.contains("Monday 00:00 UTC") })
        #expect(explanation.lines.contains("  - playStore: weekly_offer"))
        #expect(explanation.refundPolicy == .clawback)
    }

    /// A verifier that swaps the ledger's catalog while a fulfillment is in flight.
    final class SwappingVerifier: TransactionVerifier, @unchecked Sendable {
        // Set once before use; read-only afterwards.
        var ledger: Ledger?
        var replacement: ProductCatalog?
        let inner = TestStoreVerifier()
        var supportedEnvironments: Set<StoreEnvironment> { [.sandbox] }

        func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
            if let ledger, let replacement { ledger.replaceCatalog(replacement) }
            return try await inner.verify(submission)
        }
    }

    @Test func inFlightFulfillmentFinishesOnTheCatalogItStartedWith() async throws {
        let old = try Self.catalog(Self.sample)
        let new = try Self.catalog(Self.sample.replacingOccurrences(of: #""amount": 100 }"#, with: #""amount": 150 }"#))
        let verifier = SwappingVerifier()
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        let ledger = try Ledger(
            catalog: old, store: InMemoryLedgerStore(), verifier: verifier, finisher: platform, clock: clock,
            configuration: .sandbox)
        verifier.ledger = ledger
        verifier.replacement = new
        let outcome = try await ledger.fulfill(platform.purchase(storeProductID: "test.gems_small", playerID: "p1"))
        #expect(outcome.receipt?.record.grants == [GrantLine(kind: .currency, id: "gems", quantity: 100)])
        #expect(outcome.receipt?.record.catalogVersion == old.versionHash)
        #expect(ledger.catalog.versionHash == new.versionHash)
        verifier.replacement = nil
        let next = try await ledger.fulfill(platform.purchase(storeProductID: "test.gems_small", playerID: "p1"))
        #expect(next.receipt?.record.grants == [GrantLine(kind: .currency, id: "gems", quantity: 150)])
        #expect(next.receipt?.record.catalogVersion == new.versionHash)
    }

    @Test func invalidReloadKeepsTheOldCatalog() async throws {
        let harness = try await LedgerHarness(.memory)
        let before = harness.ledger.catalog.versionHash
        let directory = try LedgerHarness.temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.json")
        try Self.sample.replacingOccurrences(of: #""amount": 100"#, with: #""amount": -1"#)
            .write(to: broken, atomically: true, encoding: .utf8)
        #expect(throws: LedgerError.self) { try harness.ledger.reloadCatalog(path: broken.path) }
        #expect(harness.ledger.catalog.versionHash == before)
        let good = directory.appendingPathComponent("good.json")
        try (Self.sample + "\n").write(to: good, atomically: true, encoding: .utf8)
        let loaded = try harness.ledger.reloadCatalog(path: good.path)
        #expect(harness.ledger.catalog.versionHash == loaded.versionHash && loaded.versionHash != before)
    }
}
