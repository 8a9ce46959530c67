import FulfillmentLedger

/// The support reads' answer for a player ID the ledger holds nothing for (`player`,
/// `history --player`, `entitlements`, `subscriptions`): exit 3 with a message, so a mistyped
/// or foreign ID is never shown as a player who bought nothing.
enum UnknownPlayer {
    /// Whether the ledger holds anything for `playerID` (`LedgerReader.isKnownPlayer`), in one read.
    static func isKnown(_ playerID: String, in store: any LedgerStore) async throws(LedgerError) -> Bool {
        try await store.read { reader throws(LedgerError) in try reader.isKnownPlayer(playerID) }
    }

    /// Reports the unknown player: the message on stderr, and with `--json` the one error
    /// body (`player.unknown`, 3004) on stdout; returns 3.
    static func report(_ playerID: String, io: CommandIO, command: String, json: Bool) -> ExitCode {
        let body = LedgerErrorBody.unknownPlayer(playerID)
        if json { io.printJSON(body) }
        io.printError("ledger \(command): \(body.error.message)")
        return .rejected
    }
}
