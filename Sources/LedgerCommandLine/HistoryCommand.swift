import FulfillmentLedger

/// `ledger history`: every event of a player or a transaction, or the change feed of every
/// player, in order, a page at a time.
enum HistoryCommand {
    /// Most events printed by one call (`--limit` is 1 to this; the default).
    static let eventCountMax = 10_000

    /// `--transaction STORE/ID`.
    static let transaction = CommandOption("transaction", "STORE/ID", help: "the events of one transaction, such as test/t-1")
    /// `--changes`.
    static let changes = CommandOption.flag("changes", help: "the change feed of every player, in commit order")
    /// `--limit N`.
    static let limit = CommonOptions.limit(max: eventCountMax, of: "events")
    /// `--after SEQUENCE`.
    static let after = CommandOption(
        "after", "SEQUENCE", default: "0", help: "start after the event numbered SEQUENCE (#SEQUENCE in the text)")

    static let command = Command(
        words: ["history"],
        summary: "print every event of a player or a transaction, oldest first",
        description: """
            Prints the event log in order: purchases granted, finishes, refunds and
            reversals, debt recorded and repaid, transfers, resets. With --changes, the
            change feed: every player's changes in commit order, without finish results
            (what GET /changes serves). The database must exist.
            One call prints at most N events (default and most \(eventCountMax)), oldest
            first, starting after event SEQUENCE (default: from the first). When more follow,
            it says so and names the --after value of the next page. With --player, a player
            ID the ledger holds nothing for is refused as unknown.
            Give exactly one of --player, --transaction and --changes.

            exit codes: 0 ok, 1 unreadable ledger, 3 unknown player, 64 usage,
              66 database missing
            """,
        options: [LedgerDatabase.option, CommonOptions.player, transaction, changes, limit, after, CommonOptions.json],
        run: { arguments, io in
            let database: LedgerDatabase
            let subject: Subject
            let page: Page
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                subject = try Subject(arguments)
                page = try Page(arguments)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "history")
            }
            do throws(LedgerError) {
                return try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                    // One more than the page: whether it is there says whether more follow.
                    let read = page.limit + 1
                    var events = try await store.read { reader throws(LedgerError) -> [LedgerEvent] in
                        switch subject {
                        case .player(let player): try reader.events(playerID: player, afterSequence: page.after, limit: read)
                        case .transaction(let key): try reader.events(transaction: key, afterSequence: page.after, limit: read)
                        case .changes: try reader.changes(afterSequence: page.after, limit: read)
                        }
                    }
                    // An empty page of a player's events may mean a player ID the ledger never saw.
                    if case .player(let player) = subject, events.isEmpty, try await !UnknownPlayer.isKnown(player, in: store) {
                        return UnknownPlayer.report(player, io: io, command: "history", json: arguments.flag(CommonOptions.json))
                    }
                    let truncated = events.count > page.limit
                    if truncated { events.removeLast(events.count - page.limit) }
                    let output = Output(events: events, truncated: truncated, nextAfter: truncated ? events.last?.sequence : nil)
                    if arguments.flag(CommonOptions.json) {
                        io.printJSON(output)
                    } else {
                        printText(output, io: io)
                    }
                    return .ok
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "history")
            }
        })

    struct Output: Encodable {
        var events: [LedgerEvent]
        /// Whether more events follow this page.
        var truncated: Bool
        /// The `--after` value of the next page, when more follow.
        var nextAfter: Int64?
    }

    static func printText(_ output: Output, io: CommandIO) {
        for event in output.events {
            let key = event.transaction.map { " \($0)" } ?? ""
            io.print("#\(event.sequence) \(event.at.formatted(.iso8601)) \(event.playerID)\(key) \(event.kind): \(event.detail)")
        }
        if let next = output.nextAfter {
            io.print(
                "truncated: \(output.events.count) event(s) shown and more follow; next page: the same command with --after \(next)")
        }
    }

    /// One page: at most `limit` rows after a cursor.
    struct Page {
        var limit: Int
        var after: Int64

        init(_ arguments: Arguments) throws(Arguments.UsageError) {
            limit = try arguments.integer(HistoryCommand.limit)
            after = 0
            if let text = arguments.value(HistoryCommand.after) {
                guard let value = Int64(text), value >= 0 else {
                    throw Arguments.UsageError(message: "--after needs an event sequence number (0 or more)")
                }
                after = value
            }
        }
    }

    enum Subject {
        case player(String)
        case transaction(TransactionKey)
        case changes

        init(_ arguments: Arguments) throws(Arguments.UsageError) {
            switch (arguments.value(CommonOptions.player), arguments.value(HistoryCommand.transaction), arguments.flag(HistoryCommand.changes)) {
            case (let player?, nil, false): self = .player(player)
            case (nil, nil, true): self = .changes
            case (nil, let text?, false):
                let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw Arguments.UsageError(message: "--transaction takes STORE/ID, such as test/test-000001")
                }
                self = .transaction(TransactionKey(store: PlatformStore(rawValue: parts[0]), transactionID: parts[1]))
            default: throw Arguments.UsageError(message: "give exactly one of --player, --transaction and --changes")
            }
        }
    }
}
