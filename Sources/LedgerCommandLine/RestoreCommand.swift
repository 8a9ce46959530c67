import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting

/// `ledger restore`: reconcile a player with the store's list of their transactions.
enum RestoreCommand {
    static let command = Command(
        words: ["restore"],
        summary: "grant whatever is missing from a store list of a player's transactions",
        help: """
            usage: ledger restore --db FILE --catalog FILE --player P [--transfer]

            Reads {"transactions": [...], "authoritative": false} (or a bare list) on stdin,
            where each transaction has the `ledger fulfill` input fields, and runs each
            through the normal pipeline for player P: what is missing is granted, nothing
            twice. An empty list revokes nothing unless "authoritative" is true. With
            --transfer, a non-consumable fulfilled for another player moves to P. An unknown
            field, a value of the wrong type and invalid JSON are refused (exit 65) with their
            line and column.

            exit codes: 0 done (see the report), 1 infrastructure error, 64 usage,
              65 invalid input or catalog, 66 database or catalog missing
            """,
        valueOptions: ["db", "catalog", "player"],
        flagOptions: ["transfer"],
        run: { arguments, io in await run(arguments, io: io) })

    struct Input: Decodable {
        var transactions: [TestStoreTransaction]
        var authoritative: Bool?
    }

    struct Output: Encodable {
        var playerID: String
        var outcomes: [String: String]
        var transferred: [String]
        var revoked: [String]
        var errors: [String: String]
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: String
        let catalogPath: String
        let playerID: String
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try arguments.required("db")
            catalogPath = try arguments.required("catalog")
            playerID = try arguments.required("player")
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "restore")
        }
        guard let data = io.readInput(FulfillCommand.inputByteCountMax * 16) else {
            io.printError("ledger restore: stdin is too large")
            return .dataError
        }
        let input: Input
        do throws(StdinDocumentError) {
            let root = try StdinDocument.parse(data)
            if case .array = root {
                input = Input(transactions: try StdinDocument.decode([TestStoreTransaction].self, root: root), authoritative: false)
            } else {
                input = try StdinDocument.decode(Input.self, root: root)
            }
        } catch {
            return LedgerCommandLine.inputError(error, expected: "a transaction list", io: io, command: "restore")
        }
        do throws(LedgerError) {
            let ledger = try LedgerSetup.ledger(
                database: database, catalogPath: catalogPath, createIfMissing: false,
                ownershipTransfer: arguments.flag("transfer") ? .nonConsumablesOnRestore : .never)
            let query = RestoreQuery.answered(
                input.transactions.map { $0.submission() }, authoritative: input.authoritative ?? false)
            let report = try await ledger.restore(playerID: playerID, query: query)
            io.printJSON(
                Output(
                    playerID: report.playerID,
                    outcomes: Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.key.description, $0.value.name) }),
                    transferred: report.transferred.map(\.description).sorted(),
                    revoked: report.revoked.map(\.description).sorted(),
                    errors: Dictionary(uniqueKeysWithValues: report.errors.map { ($0.key.description, $0.value.description) })))
            return report.errors.isEmpty ? .ok : .failure
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "restore", catalogPath: catalogPath)
        }
    }
}
