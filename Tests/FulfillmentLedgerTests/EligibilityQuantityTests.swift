import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `eligibility(playerID:productID:quantity:)`: the quantity the game will ask the store for
/// counts against the limit, and a quantity `fulfill` would reject is refused before payment.
@Suite struct EligibilityQuantityTests {
    static let weekly = PurchaseLimit(count: 3, period: .week)

    /// A harness whose weekly offer allows 3 units a week.
    static func harness(_ kind: StoreKind) async throws -> LedgerHarness {
        let harness = try await LedgerHarness(kind)
        let text = CatalogToolingTests.sample.replacingOccurrences(
            of: #""limit": { "count": 1, "per": "week" }"#, with: #""limit": { "count": 3, "per": "week" }"#)
        harness.ledger.replaceCatalog(try CatalogToolingTests.catalog(text))
        return harness
    }

    @Test("units already bought plus the quantity asked for are checked against the limit", arguments: StoreKind.allCases)
    func quantityCountsAgainstTheLimit(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let ledger = harness.ledger
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 3) == .eligible)
        let resetsAt = PurchasePeriod.nextWeekStart(after: harness.clock.now())
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 4)
            == .limitReached(limit: Self.weekly, count: 0, resetsAt: resetsAt))

        let two = harness.testStore.purchase(storeProductID: "test.weekly_offer", playerID: "p1", quantity: 2)
        #expect(try await ledger.fulfill(two).name == "granted")
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer") == .eligible, "the default quantity is 1")
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 1) == .eligible)
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 2)
            == .limitReached(limit: Self.weekly, count: 2, resetsAt: resetsAt))
        await #expect(try ledger.eligibility(playerID: "p2", productID: "weekly_offer", quantity: 3) == .eligible, "counts are per player")

        // Limits govern the next purchase only: a paid quantity above what is left is granted in full.
        let ten = harness.testStore.purchase(storeProductID: "test.weekly_offer", playerID: "p1", quantity: 10)
        #expect(try await ledger.fulfill(ten).name == "granted")
        await #expect(try harness.balance("p1", "gems") == 12 * 300)
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 1)
            == .limitReached(limit: Self.weekly, count: 12, resetsAt: resetsAt))
        harness.clock.advance(seconds: 7 * 86_400)
        await #expect(try ledger.eligibility(playerID: "p1", productID: "weekly_offer", quantity: 3) == .eligible, "a new week")
    }

    /// Quantities and the answer: consumables allow 1 to `quantityMax` (100), non-consumables 1.
    static let quantities: [(storeProductID: String, quantity: Int, answer: Eligibility)] = [
        ("gems_small", 0, .invalidQuantity(quantity: 0, quantityMax: 100)),
        ("gems_small", -1, .invalidQuantity(quantity: -1, quantityMax: 100)),
        ("gems_small", Int.min, .invalidQuantity(quantity: Int.min, quantityMax: 100)),
        ("gems_small", 101, .invalidQuantity(quantity: 101, quantityMax: 100)),
        ("gems_small", Int.max, .invalidQuantity(quantity: Int.max, quantityMax: 100)),
        ("gems_small", 100, .eligible),
        ("weekly_offer", 0, .invalidQuantity(quantity: 0, quantityMax: 100)),
        ("remove_ads", 2, .invalidQuantity(quantity: 2, quantityMax: 1)),
        ("remove_ads", 0, .invalidQuantity(quantity: 0, quantityMax: 1)),
        ("remove_ads", 1, .eligible),
        ("no_such_product", 0, .unknownProduct),
    ]

    @Test("a quantity fulfill would reject is answered invalidQuantity, and fulfill agrees", arguments: quantities.indices)
    func invalidQuantityIsRefusedBeforePayment(index: Int) async throws {
        let (productID, quantity, answer) = Self.quantities[index]
        let harness = try await Self.harness(.memory)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: productID, quantity: quantity) == answer)
        guard productID != "no_such_product" else { return }
        // The same quantity through the store: eligibility's bounds are the pipeline's.
        let purchase = harness.testStore.purchase(storeProductID: "test.\(productID)", playerID: "p1", quantity: quantity)
        let outcome = try await harness.ledger.fulfill(purchase)
        if case .invalidQuantity = answer {
            #expect(outcome.rejection?.reason == .invalidQuantity, "\(productID) x\(quantity): \(outcome.name)")
        } else {
            #expect(outcome.name == "granted", "\(productID) x\(quantity)")
        }
    }

    @Test("an owned non-consumable asked for with quantity 2 is an invalid quantity, not merely owned")
    func quantityIsCheckedBeforeOwnership() async throws {
        let harness = try await Self.harness(.sqlite)
        #expect(try await harness.ledger.fulfill(harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")).name == "granted")
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads") == .alreadyOwned)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads", quantity: 2)
            == .invalidQuantity(quantity: 2, quantityMax: 1))
    }

    @Test("quantityMax comes from the ledger's configuration")
    func configuredQuantityMax() async throws {
        var configuration = LedgerConfiguration.sandbox
        configuration.quantityMax = 5
        let testStore = TestStore()
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, configuration: configuration)
        await #expect(try ledger.eligibility(playerID: "p1", productID: "gems_small", quantity: 5) == .eligible)
        await #expect(try ledger.eligibility(playerID: "p1", productID: "gems_small", quantity: 6) == .invalidQuantity(quantity: 6, quantityMax: 5))
    }
}
