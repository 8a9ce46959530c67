import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// An identifier holding a control character is refused at every entry point of the core, on
/// every engine: `"victim\u{0}x"` must never be stored as `"victim"`, which would land a purchase,
/// a grant or a refund on another player.
@Suite struct ControlCharacterIdentifierTests {
    /// Hostile identifiers: a NUL in the middle, a NUL at the end, the last C0 control, DEL.
    static let hostile = ["victim\u{0}x", "victim\u{0}", "victim\u{1F}", "victim\u{7F}", "\u{0}"]

    /// Expects `body` to throw `invalidArgument` naming the control character.
    static func expectRefused(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("\(what) was accepted", sourceLocation: sourceLocation)
        } catch {
            guard case .invalidArgument(let message) = error as? LedgerError else {
                Issue.record("\(what): expected invalidArgument, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(message.contains("control character"), "\(what): \(message)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyEntryPointRefusesAControlCharacterAndChangesNothing(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ledger = harness.ledger
        for id in Self.hostile {
            await Self.expectRefused("fulfill for \(id.debugDescription)") {
                _ = try await ledger.fulfill(harness.testStore.purchase(storeProductID: "test.gems_small", playerID: id))
            }
            await Self.expectRefused("a grant to \(id.debugDescription)") {
                _ = try await ledger.apply(.grant(10, of: "gems", player: id, operationID: "op-\(UUID().uuidString)"))
            }
            await Self.expectRefused("an operation ID \(id.debugDescription)") {
                _ = try await ledger.apply(.grant(10, of: "gems", player: "victim", operationID: id))
            }
            await Self.expectRefused("a refund event ID \(id.debugDescription)") {
                _ = try await ledger.applyRevocation(
                    RevocationEvent(eventID: id, store: .test, transactionID: "t-1", kind: .fullRefund, eventDate: harness.clock.now()))
            }
            await Self.expectRefused("a refund of transaction \(id.debugDescription)") {
                _ = try await ledger.applyRevocation(
                    RevocationEvent(eventID: "e-1", store: .test, transactionID: id, kind: .fullRefund, eventDate: harness.clock.now()))
            }
            await Self.expectRefused("a read of \(id.debugDescription)") { _ = try await ledger.player(id) }
        }
        let victim = try await ledger.player("victim")
        #expect(victim.balances.isEmpty && victim.history.isEmpty, "nothing landed on the victim")
        #expect(try await ledger.changes(after: 0).changes.isEmpty, "nothing was written at all")
        // The same player without the control character is served as usual.
        let bought = try await ledger.fulfill(harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "victim"))
        #expect(bought.name == "granted")
    }
}
