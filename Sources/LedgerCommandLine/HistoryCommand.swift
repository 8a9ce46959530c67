import FulfillmentLedger

/// `ledger history`: every event of a player or a transaction, in order.
enum HistoryCommand {
    /// Events printed at most.
    static let eventCountMax = 10_000

    static let command = Command(
        words: ["history"],
        summary: "print every event of a player or a transaction, oldest first",
        help: """
            usage: ledger history --db FILE (--player P | --transaction STORE/ID) [--json]

            Prints the event log in order: purchases granted, finishes, refunds and
            reversals, debt recorded and repaid, transfers, resets. The database must exist.

            exit codes: 0 ok, 1 unreadable ledger, 64 usage, 66 database missing
            """,
        valueOptions: ["db", "player", "transaction"],
        flagOptions: ["json"],
        run: { arguments, io in
            let database: String
            let subject: Subject
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try arguments.required("db")
                subject = try Subject(arguments)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "history")
            }
            do throws(LedgerError) {
                let store = try LedgerSetup.existingStore(database)
                let events = try store.read { reader throws(LedgerError) -> [LedgerEvent] in
                    switch subject {
                    case .player(let player): return try reader.events(playerID: player, limit: eventCountMax).reversed()
                    case .transaction(let key): return try reader.events(transaction: key, limit: eventCountMax)
                    }
                }
                if arguments.flag("json") {
                    io.printJSON(events)
                } else {
                    for event in events {
                        let key = event.transaction.map { " \($0)" } ?? ""
                        io.print("#\(event.sequence) \(event.at.formatted(.iso8601)) \(event.playerID)\(key) \(event.kind): \(event.detail)")
                    }
                }
                return .ok
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "history")
            }
        })

    enum Subject {
        case player(String)
        case transaction(TransactionKey)

        init(_ arguments: Arguments) throws(Arguments.UsageError) {
            switch (arguments.value("player"), arguments.value("transaction")) {
            case (let player?, nil): self = .player(player)
            case (nil, let text?):
                let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw Arguments.UsageError(message: "--transaction takes STORE/ID, such as test/test-000001")
                }
                self = .transaction(TransactionKey(store: PlatformStore(rawValue: parts[0]), transactionID: parts[1]))
            default: throw Arguments.UsageError(message: "give exactly one of --player and --transaction")
            }
        }
    }
}
