import FulfillmentLedger
import Foundation

/// `ledger player` and `ledger reset`: what happened to a player, and Reset Game.
enum PlayerCommands {
    /// History entries shown by `ledger player`.
    static let historyCountMax = 200

    static let player = Command(
        words: ["player"],
        summary: "show a player's balances, inventory, entitlements, purchases and events",
        positionals: "PLAYER",
        description: """
            Prints what support needs to answer "I paid and got nothing": the player's
            balances, debts, inventory, entitlements and entitlement version, flags, fulfilled
            purchases (newest first, at most \(historyCountMax)) with their finish status (finished
            at a time, or pending finish with its failed attempts), the submissions that
            granted nothing (rejected or failed, from the attempts journal) and recent events, in
            sections of aligned columns. A player ID the ledger holds nothing for is refused as
            unknown; a known player with no purchases gets empty sections. The database must
            exist.

            exit codes: 0 ok, 1 unreadable ledger, 3 unknown player, 64 usage,
              66 database missing
            """,
        options: [LedgerDatabase.option, CommonOptions.json],
        run: { arguments, io in
            let playerID: String
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                (playerID, database) = try playerAndDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "player")
            }
            let json = arguments.flag(CommonOptions.json)
            do throws(LedgerError) {
                return try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                    guard try await UnknownPlayer.isKnown(playerID, in: store) else {
                        return UnknownPlayer.report(playerID, io: io, command: "player", json: json)
                    }
                    let snapshot = try await store.playerSnapshot(playerID, historyCountMax: historyCountMax)
                    if json {
                        io.printJSON(snapshot)
                    } else {
                        let attempts = try await store.read { reader throws(LedgerError) in
                            try reader.attempts(playerID: playerID, limit: historyCountMax)
                        }
                        printText(
                            snapshot, pending: try await pendingFinishes(of: snapshot.history, in: store), attempts: attempts, io: io)
                    }
                    return .ok
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "player")
            }
        })

    static let reset = Command(
        words: ["reset"],
        summary: "Reset Game for a player: clear progress, keep the ledger",
        positionals: "PLAYER",
        description: """
            Clears the player's balances, inventory and purchase counts. The transaction
            ledger and entitlements are kept, so an old transaction replayed later is still
            recognised as already fulfilled. Prints {"reset": PLAYER} as JSON.

            exit codes: 0 ok, 1 unreadable ledger, 64 usage, 66 database missing
            """,
        options: [LedgerDatabase.option],
        run: { arguments, io in
            let playerID: String
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                (playerID, database) = try playerAndDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "reset")
            }
            do throws(LedgerError) {
                return try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                    try await store.resetPlayer(playerID, at: Date())
                    io.printJSON(["reset": playerID])
                    return .ok
                }
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
