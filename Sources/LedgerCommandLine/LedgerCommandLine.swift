import FulfillmentLedger
import PostgresLedgerStore
import SQLiteLedgerStore

/// The `ledger` command-line tool: a thin layer over the library. These are the operator
/// commands; the development commands (`demo`, `simulate`, `workload`) live in
/// `LedgerDevCommands`, which the `ledger` executable registers beside them.
public enum LedgerCommandLine {
    /// The operator commands, built on the production products only.
    static let commands: [Command] = [
        InitCommand.command, CatalogCheckCommand.command, CatalogDiffCommand.command, CatalogExplainCommand.command,
        FulfillCommand.command, RecoverCommand.command, RevokeCommand.command, RestoreCommand.command,
        EntitlementsCommand.command, SubscriptionsCommand.command, HistoryCommand.command, LookupCommand.command,
        PlayerCommands.player, PlayerCommands.reset,
        DoctorCommand.command, MigrateCommand.command, AppStoreVerifyCommand.command,
        AppStoreLedgerCommands.fulfill, AppStoreLedgerCommands.notify, AppStoreBindCommand.command,
        AppStoreAccountCommands.appTransaction, AppStoreAccountCommands.setToken,
        AppStoreServerAPICommands.lookup,
        AppStoreServerAPICommands.history, AppStoreServerAPICommands.token, AppStoreReconcileCommand.command, AppStoreSubscriptionStatusCommand.command,
        AppStoreNotificationsSyncCommand.command, AppStoreConsumptionCommand.command, PlayStoreCommands.verify,
        PlayStoreLedgerCommands.rtdn, PlayStoreLedgerCommands.voidedSync, PlayRefundReviewCommand.command,
        PlayReconcileCommand.command, StripeWebhookCommand.command,
        SteamCommands.start, SteamCommands.authorize, SteamCommands.submit, SteamCommands.sync,
        ServeCommand.command,
    ]

    /// Every command the `ledger` executable registers: the operator commands, then `developmentCommands`.
    package static func commands(developmentCommands: [Command]) -> [Command] {
        commands + developmentCommands
    }

    /// The command that `arguments` (without the program name) select among `commands`: the one
    /// with the most leading words; nil when none does.
    package static func command(for arguments: [String], among commands: [Command]) -> Command? {
        commands.filter { arguments.starts(with: $0.words) }.max { $0.words.count < $1.words.count }
    }

    /// Runs the operator commands with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
        await run(arguments, io: io, developmentCommands: [])
    }

    /// Runs the tool with the operator commands and `developmentCommands` (those of
    /// `LedgerDevCommands`), which the help lists in a section of their own.
    package static func run(_ arguments: [String], io: CommandIO, developmentCommands: [Command]) async -> Int32 {
        let all = Self.commands(developmentCommands: developmentCommands)
        if arguments == ["--version"] || arguments == ["version"] {
            io.print(versionText)
            return ExitCode.ok.rawValue
        }
        if arguments == ["help", "--markdown"] {
            io.writeOutput(CommandReference.markdown(commands: commands, developmentCommands: developmentCommands))
            return ExitCode.ok.rawValue
        }
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] || arguments == ["-h"] {
            io.print(usage(developmentCommands: developmentCommands))
            return arguments.isEmpty ? ExitCode.usage.rawValue : ExitCode.ok.rawValue
        }
        guard let command = Self.command(for: arguments, among: all) else {
            unknownCommand(arguments, among: all, io: io)
            return ExitCode.usage.rawValue
        }
        return await command.invoke(Array(arguments.dropFirst(command.words.count)), io: io).rawValue
    }

    /// Explains a command line that selects no command, with the nearest command when one is close.
    static func unknownCommand(_ arguments: [String], among commands: [Command], io: CommandIO) {
        // A group word (`ledger catalog`, `ledger appstore`): a misspelt subcommand, or none.
        let group = commands.filter { $0.words.count > 1 && $0.words[0] == arguments[0] }
        if !group.isEmpty {
            if arguments.count > 1, !arguments[1].hasPrefix("-"),
                let near = EditDistance.nearest(to: arguments[1], in: group.map { $0.words[1] })
            {
                io.printError("ledger \(arguments[0]): unknown subcommand \"\(arguments[1])\"; did you mean `ledger \(arguments[0]) \(near)`?")
                return
            }
            io.printError("ledger \(arguments[0]): choose one of:")
            for command in group { io.printError("  ledger \(command.words.joined(separator: " ")): \(command.summary)") }
            return
        }
        let hint = EditDistance.nearest(to: arguments[0], in: Set(commands.map { $0.words[0] }))
            .map { "; did you mean `ledger \($0)`?" } ?? "; run `ledger --help` for the list"
        io.printError("ledger: unknown command \"\(arguments[0])\"\(hint)")
    }

    /// `ledger --version`: the release and the schema version each engine writes.
    static var versionText: String {
        "ledger \(LedgerVersion.current) (schema: SQLite \(SQLiteLedgerStore.schemaVersion), PostgreSQL \(PostgresLedgerStore.schemaVersion))"
    }

    /// The top-level help: every command with its summary, the development commands in a
    /// section of their own.
    static func usage(developmentCommands: [Command]) -> String {
        var lines = [
            "ledger: exactly-once fulfillment ledger for game economies", "",
            "usage: ledger <command> [options]   (every command takes --help; ledger --version;",
            "  ledger help --markdown prints the CLI reference)", "", "commands:",
        ]
        let width = ((commands + developmentCommands).map { $0.words.joined(separator: " ").count }.max() ?? 0) + 2
        func list(_ commands: [Command]) {
            for command in commands {
                let name = command.words.joined(separator: " ")
                lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
            }
        }
        list(commands)
        if !developmentCommands.isEmpty {
            lines += [
                "", "development commands (LedgerDevCommands, built on the testing products: test stores,",
                "  simulators and faults on sandbox ledgers; not for operating a ledger):",
            ]
            list(developmentCommands)
        }
        lines += [
            "",
            "--db DB: a SQLite ledger file, or a PostgreSQL database as a postgresql:// URL; without",
            "  --db, the \(LedgerDatabase.environmentVariable) environment variable names it.",
            "",
            "exit codes: 0 ok, 1 infrastructure error (or a dangerous catalog diff), 3 rejected, 64 usage,",
            "  65 bad data, 66 missing input, 70 a demo step did not behave, 73 cannot create (migrate:",
            "  the target is not empty), 77 no permission (a store push that did not authenticate)",
        ]
        return lines.joined(separator: "\n")
    }

    /// Reports an infrastructure error as JSON on stdout and text on stderr; returns its exit code.
    /// An invalid catalog also gets the command that lists its problems one per line, located.
    package static func report(_ error: LedgerError, io: CommandIO, command: String, catalogPath: String? = nil) -> ExitCode {
        io.printJSON(ErrorOutput(error))
        io.printError("ledger \(command): \(error.description)")
        if case .catalogInvalid = error {
            io.printError(
                "ledger \(command): run `ledger catalog check \(catalogPath ?? "FILE")` to list every problem with its line and column")
        }
        switch error {
        case .catalogInvalid: return .dataError
        case .catalogUnreadable, .ledgerMissing: return .noInput
        case .invalidArgument: return .dataError
        default: return .failure
        }
    }

    /// Reports refused JSON input on stderr, one located problem per line; returns 65.
    static func inputError(_ error: StrictJSONError, expected: String, io: CommandIO, command: String) -> ExitCode {
        io.printJSON(error.body(expected: expected))
        io.printError("ledger \(command): stdin is not \(expected):")
        for line in error.lines(source: "stdin") { io.printError(line) }
        return .dataError
    }

    /// Reports a usage mistake of `ledger <command>`; returns 64.
    package static func usageError(_ message: String, io: CommandIO, command: String) -> ExitCode {
        usageError(message, io: io, program: "ledger \(command)")
    }

    /// Reports a usage mistake of `program` (`ledger catalog check`, `ledger-bench`); returns 64.
    package static func usageError(_ message: String, io: CommandIO, program: String) -> ExitCode {
        io.printError("\(program): \(message)")
        io.printError("run `\(program) --help` for usage")
        return .usage
    }
}

/// `{"error": {...}}`, the JSON form of every error a command prints: `LedgerErrorBody`.
typealias ErrorOutput = LedgerErrorBody
