import FulfillmentLedger
import Foundation

/// `ledger player` and `ledger reset`: what happened to a player, and Reset Game.
enum PlayerCommands {
    /// History entries shown by `ledger player`.
    static let historyCountMax = 200

    static let player = Command(
        words: ["player"],
        summary: "show a player's balances, inventory, entitlements and history",
        help: """
            usage: ledger player PLAYER --db DB

            Prints the player's balances, inventory, entitlements, fulfilled transactions
            (newest first, at most \(historyCountMax)) and recent events as one JSON object.
            The database must exist.

            exit codes: 0 ok, 1 unreadable ledger, 64 usage, 66 database missing
            """,
        valueOptions: ["db"],
        run: { arguments, io in
            let playerID: String
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                (playerID, database) = try playerAndDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "player")
            }
            do throws(LedgerError) {
                let store = try await LedgerSetup.existingStore(database)
                await io.printJSON(try store.playerSnapshot(playerID, historyCountMax: historyCountMax))
                return .ok
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "player")
            }
        })

    static let reset = Command(
        words: ["reset"],
        summary: "Reset Game for a player: clear progress, keep the ledger",
        help: """
            usage: ledger reset PLAYER --db DB

            Clears the player's balances, inventory and purchase counts. The transaction
            ledger and entitlements are kept, so an old transaction replayed later is still
            recognised as already fulfilled. Prints {"reset": PLAYER} as JSON.

            exit codes: 0 ok, 1 unreadable ledger, 64 usage, 66 database missing
            """,
        valueOptions: ["db"],
        run: { arguments, io in
            let playerID: String
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                (playerID, database) = try playerAndDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "reset")
            }
            do throws(LedgerError) {
                let store = try await LedgerSetup.existingStore(database)
                try await store.resetPlayer(playerID, at: Date())
                io.printJSON(["reset": playerID])
                return .ok
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "reset")
            }
        })

    private static func playerAndDatabase(
        _ arguments: Arguments, io: CommandIO
    ) throws(Arguments.UsageError) -> (String, LedgerDatabase) {
        try arguments.expectPositionals(max: 1)
        guard let playerID = arguments.positionals.first, !playerID.isEmpty else {
            throw Arguments.UsageError(message: "PLAYER is required")
        }
        let identifierByteCountMax = LedgerConfiguration.sandbox.identifierByteCountMax
        guard playerID.utf8.count <= identifierByteCountMax else {
            throw Arguments.UsageError(message: "PLAYER is longer than \(identifierByteCountMax) bytes")
        }
        return (playerID, try LedgerDatabase(arguments, io: io))
    }
}
