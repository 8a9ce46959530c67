import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `LedgerReader.isKnownPlayer`: a player ID the ledger holds nothing for is told apart from a
/// known player with no purchases, on every store engine.
@Suite struct KnownPlayerTests {
    /// Whether `harness`'s ledger knows `player`, in one read.
    static func isKnown(_ player: String, _ harness: LedgerHarness) async throws -> Bool {
        try await harness.ledger.store.read { reader throws(LedgerError) in try reader.isKnownPlayer(player) }
    }

    @Test(arguments: StoreKind.allCases)
    func aPurchaseAResetOrAJournaledRejectionMakesAPlayerKnown(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        #expect(try await !Self.isKnown("p1", harness))

        let bought = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        #expect(try await harness.ledger.fulfill(bought).name == "granted")
        #expect(try await Self.isKnown("p1", harness))

        // A rejection (here a pending payment) grants nothing, but its attempt is journaled:
        // support finds the player who says "I paid and got nothing".
        let pending = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p2", state: .pending)
        #expect(try await harness.ledger.fulfill(pending).rejection?.reason == .pending)
        #expect(try await Self.isKnown("p2", harness))
        #expect(try await harness.ledger.player("p2").history.isEmpty)

        // A reset of a player with no purchases leaves its event: known, with nothing bought.
        try await harness.ledger.resetPlayer("p3")
        #expect(try await Self.isKnown("p3", harness))
    }
}
