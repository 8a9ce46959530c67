import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// The hand-written grant encoding reads back through `JSONDecoder`, whatever the IDs hold.
@Suite("grant lines encoding")
struct GrantEncodingTests {
    @Test func grantLinesRoundTripWithAwkwardIDs() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let awkward = ["plain", "quote\"d", "back\\slash", "new\nline\ttab\r", "ctl\u{01}\u{1F}", "ünï🎮", ""]
        let grants = awkward.enumerated().map { index, id in
            GrantLine(kind: AssetKind.allCases[index % AssetKind.allCases.count], id: id, quantity: Int64(index) - 3)
        }
        let text = StoredForm.grantsText(grants)
        #expect(try JSONDecoder().decode([GrantLine].self, from: Data(text.utf8)) == grants)
        #expect(StoredForm.grantsText([]) == "[]")
        var record = Rows.record("awkward")
        record.grants = grants
        let stored = record
        try await store.write { writer throws(LedgerError) in try writer.insertTransaction(stored) }
        let frozenRecord = record
        await #expect(try store.read { reader throws(LedgerError) in try reader.transaction(frozenRecord.key) }?.grants == grants)
        await store.close()
    }
}
