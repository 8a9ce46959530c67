import Foundation
import FulfillmentLedger
import Testing

/// The paged event reads behind `ledger history` behave the same in the in-memory fake and the
/// SQLite store.
@Suite("Store contract: pages of events")
struct StoreContractPageTests {
    @Test("events after a sequence come oldest first, per player or transaction, up to the limit", arguments: StoreKind.allCases)
    func eventsAfterSequence(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        let sequences = try await store.write { writer throws(LedgerError) -> [Int64] in
            var sequences: [Int64] = []
            for (index, (player, transactionID)) in [("p1", "t1"), ("p2", "t1"), ("p1", nil), ("p1", "t1"), ("p1", "t2")].enumerated() {
                sequences.append(try writer.appendEvent(ContractRows.event("e\(index)", player: player, transactionID: transactionID)))
            }
            return sequences
        }
        let reads = try await store.read { reader throws(LedgerError) in
            (
                try reader.events(playerID: "p1", afterSequence: 0, limit: 100),
                try reader.events(playerID: "p1", afterSequence: sequences[0], limit: 2),
                try reader.events(playerID: "p1", afterSequence: sequences[4], limit: 100),
                try reader.events(transaction: ContractRows.key("t1"), afterSequence: 0, limit: 100),
                try reader.events(transaction: ContractRows.key("t1"), afterSequence: sequences[1], limit: 100)
            )
        }
        #expect(reads.0.map(\.detail) == ["e0", "e2", "e3", "e4"])
        #expect(reads.1.map(\.detail) == ["e2", "e3"])
        #expect(reads.2.isEmpty)
        #expect(reads.3.map(\.detail) == ["e0", "e1", "e3"])
        #expect(reads.4.map(\.detail) == ["e3"])
        #expect(reads.0.map(\.sequence) == [sequences[0], sequences[2], sequences[3], sequences[4]])
    }
}
