import Foundation
import FulfillmentLedger
import SQLiteLedgerStore
import Testing

@testable import LedgerBench

/// R1L must do what the library does, or R2/R1L would compare unlike work.
@Suite("R1L mirrors the library's writes")
struct RawLedgerWorkTests {
    static let count = 60

    /// What one ledger holds for the bench's purchases, through the library's reader.
    struct Contents: Equatable {
        var records: [String] = []
        var balances: [String: Int64] = [:]
        var purchaseCounts: [String: Int] = [:]
        var eventKinds: [String] = []
        var pendingCount = 0
    }

    static func contents(_ path: String) async throws -> Contents {
        let store = try SQLiteLedgerStore(path: path)
        let week = PurchasePeriod.weekKey(for: Date())
        let contents = try await store.read { reader throws(LedgerError) -> Contents in
            var contents = Contents()
            for index in 0..<count {
                let key = TransactionKey(store: .test, transactionID: "raw-\(index)")
                if let record = try reader.transaction(key) {
                    contents.records.append(
                        "\(record.playerID) \(record.productID) \(record.storeProductID) \(record.quantity) "
                            + "\(record.grants) finished:\(record.finishedAt != nil)")
                }
                contents.eventKinds += try reader.events(transaction: key, limit: 10).map(\.kind.rawValue)
            }
            for player in 0..<RawSQLiteLedgerWork.playerCountMax {
                let playerID = "player-\(player)"
                contents.balances[playerID] = try reader.balances(playerID: playerID)["gems"]
                for period in [PurchasePeriod.lifetime, week] {
                    contents.purchaseCounts["\(playerID) \(period)"] = try reader.purchaseCount(
                        playerID: playerID, productID: "gems_small", period: period)
                }
            }
            contents.pendingCount = try reader.pendingFinishes(limit: 1_000).count
            return contents
        }
        await store.close()
        return contents
    }

    @Test func rawWorkLeavesWhatTheLibraryLeaves() async throws {
        let directory = try ScratchDirectory()
        let rawPath = directory.path("raw.sqlite")
        let libraryPath = directory.path("library.sqlite")
        #expect(try await RawSQLiteLedgerWork.run(path: rawPath, synchronous: .normal, count: Self.count) > 0)
        do {
            let ledger = try BenchWorkloads.ledger(path: libraryPath, synchronous: .normal)
            for index in 0..<Self.count {
                let submission = TransactionSubmission(
                    store: .test, transactionID: "raw-\(index)", storeProductID: "test.gems_small",
                    playerID: "player-\(index % RawSQLiteLedgerWork.playerCountMax)", payload: "{}")
                #expect(try await ledger.fulfill(submission).name == "granted")
            }
            await ledger.store.close()
        }
        let raw = try await Self.contents(rawPath)
        let library = try await Self.contents(libraryPath)
        #expect(raw.records.count == Self.count)
        #expect(raw.eventKinds.count == Self.count)
        #expect(raw == library)
    }
}
