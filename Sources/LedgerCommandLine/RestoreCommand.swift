import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// `ledger restore`: reconcile a player with the store's list of their transactions.
enum RestoreCommand {
    /// `--transfer`.
    static let transfer = CommandOption.flag("transfer", help: "move a non-consumable fulfilled for another player to P")

    static let command = Command(
        words: ["restore"],
        summary: "grant whatever is missing from a store list of a player's transactions",
        description: """
            Reads {"store": "test", "transactions": [...], "authoritative": false,
            "readAt": "2026-11-29T12:00:00Z"} (or a bare list of test-store transactions)
            on stdin, where each transaction has the `ledger fulfill` input fields and every
            one is from `store` (default test), and runs each through the normal pipeline for
            player P: what is missing is granted, nothing twice. A list revokes nothing unless
            "authoritative" is true; then it revokes only that store's non-consumables the
            ledger fulfilled before "readAt" (default: now), the time the list was read.
            With --transfer, a non-consumable fulfilled for another player moves to P. An
            unknown field, a value of the wrong type and invalid JSON are refused (exit 65)
            with their line and column.

            output fields: playerID, outcomes (per transaction: store, transactionID and its
              `ledger fulfill` outcome), revoked, transferred, errors

            exit codes: 0 done (see the report), 1 infrastructure error, 64 usage,
              65 invalid input or catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required, transfer] + StorePortOptions.options,
        run: { arguments, io in await run(arguments, io: io) })

    struct Input: Decodable {
        var store: PlatformStore?
        var transactions: [TestStoreTransaction]
        var authoritative: Bool?
        var readAt: Date?
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let catalogPath: String
        let playerID: String
        let ports: StorePortOptions
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            catalogPath = try arguments.required(CommonOptions.catalog)
            playerID = try arguments.required(CommonOptions.player)
            ports = try StorePortOptions(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "restore")
        }
        guard let data = io.readInput(FulfillCommand.inputByteCountMax * 16) else {
            io.printError("ledger restore: stdin is too large")
            return .dataError
        }
        let input: Input
        do throws(StrictJSONError) {
            let root = try StrictJSON.parse(data)
            if case .array = root {
                input = Input(
                    store: nil, transactions: try StrictJSON.decode([TestStoreTransaction].self, root: root),
                    authoritative: false, readAt: nil)
            } else {
                input = try StrictJSON.decode(Input.self, root: root)
            }
        } catch {
            return LedgerCommandLine.inputError(error, expected: "a transaction list", io: io, command: "restore")
        }
        do throws(LedgerError) {
            return try await LedgerSetup.withLedger(
                database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: ports, createIfMissing: false,
                ownershipTransfer: arguments.flag(transfer) ? .nonConsumablesOnRestore : .never) { ledger throws(LedgerError) in
                let store = input.store ?? .test
                guard PlatformStore.known.contains(store) else {
                    io.printError("ledger restore: store \"\(store)\" is not one of \(PlatformStore.known.map(\.rawValue))")
                    return .dataError
                }
                let readAt = input.authoritative == true ? (input.readAt ?? ledger.clock.now()) : nil
                let query = RestoreQuery.answered(
                    store: store, transactions: input.transactions.map { $0.submission() }, authoritativeAsOf: readAt)
                let report = try await ledger.restore(playerID: playerID, query: query)
                io.printJSON(report)
                return report.errors.isEmpty ? .ok : .failure
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "restore", catalogPath: catalogPath)
        }
    }
}
