import FulfillmentLedger

/// One `ledger` subcommand.
struct Command: Sendable {
    /// The words that select it, such as `["catalog", "check"]`.
    var words: [String]
    /// One line for the command table.
    var summary: String
    /// The full `--help` text.
    var help: String
    /// Options that take a value.
    var valueOptions: Set<String> = []
    /// Options that are flags (`--help` is always one).
    var flagOptions: Set<String> = []
    /// Runs it.
    var run: @Sendable (Arguments, CommandIO) async -> ExitCode
}

/// The `ledger` command-line tool: a thin layer over the library.
public enum LedgerCommandLine {
    static let commands: [Command] = [
        DemoCommand.command, CatalogCheckCommand.command, CatalogDiffCommand.command, CatalogExplainCommand.command,
        FulfillCommand.command, RecoverCommand.command, RevokeCommand.command, RestoreCommand.command,
        EntitlementsCommand.command, HistoryCommand.command, PlayerCommands.player, PlayerCommands.reset,
        DoctorCommand.command, SimulateCommand.command, WorkloadCommand.command, AppStoreVerifyCommand.command,
        AppStoreLedgerCommands.fulfill, AppStoreLedgerCommands.notify, PlayStoreCommands.verify,
        PlayStoreLedgerCommands.rtdn, PlayStoreLedgerCommands.voidedSync,
        BenchCommand.command,
    ]

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] || arguments == ["-h"] {
            io.print(usage)
            return arguments.isEmpty ? ExitCode.usage.rawValue : ExitCode.ok.rawValue
        }
        guard
            let command = commands.filter({ arguments.starts(with: $0.words) })
                .max(by: { $0.words.count < $1.words.count })
        else {
            unknownCommand(arguments, io: io)
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst(command.words.count))
        if rest.contains("--help") || rest.contains("-h") {
            io.print(command.help)
            return ExitCode.ok.rawValue
        }
        let parsed: Arguments
        do {
            parsed = try Arguments(
                rest, valueOptions: command.valueOptions, flagOptions: command.flagOptions.union(["help"]))
        } catch {
            io.printError("ledger \(command.words.joined(separator: " ")): \(error.message)")
            io.printError("run `ledger \(command.words.joined(separator: " ")) --help` for usage")
            return ExitCode.usage.rawValue
        }
        return await command.run(parsed, io).rawValue
    }

    /// Explains a command line that selects no command, with the nearest command when one is close.
    static func unknownCommand(_ arguments: [String], io: CommandIO) {
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

    /// The top-level help: every command with its summary.
    static var usage: String {
        var lines = [
            "ledger: exactly-once fulfillment ledger for game economies", "",
            "usage: ledger <command> [options]   (every command takes --help)", "", "commands:",
        ]
        let width = (commands.map { $0.words.joined(separator: " ").count }.max() ?? 0) + 2
        for command in commands {
            let name = command.words.joined(separator: " ")
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        lines += [
            "",
            "exit codes: 0 ok, 1 infrastructure error (or a dangerous catalog diff), 3 rejected, 64 usage,",
            "  65 bad data, 66 missing input, 70 a demo step did not behave",
        ]
        return lines.joined(separator: "\n")
    }

    /// Reports an infrastructure error as JSON on stdout and text on stderr; returns its exit code.
    /// An invalid catalog also gets the command that lists its problems one per line, located.
    static func report(_ error: LedgerError, io: CommandIO, command: String, catalogPath: String? = nil) -> ExitCode {
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
    static func inputError(_ error: StdinDocumentError, expected: String, io: CommandIO, command: String) -> ExitCode {
        io.printError("ledger \(command): stdin is not \(expected):")
        for line in error.lines { io.printError(line) }
        return .dataError
    }

    /// Reports a usage mistake; returns 64.
    static func usageError(_ message: String, io: CommandIO, command: String) -> ExitCode {
        io.printError("ledger \(command): \(message)")
        io.printError("run `ledger \(command) --help` for usage")
        return .usage
    }
}

/// `{"error": {...}}`, the JSON form of an infrastructure error.
struct ErrorOutput: Encodable {
    struct Body: Encodable {
        var code: Int
        var name: String
        var message: String
        var problems: [CatalogProblem]?
    }

    var error: Body

    init(_ error: LedgerError) {
        var problems: [CatalogProblem]?
        if case .catalogInvalid(let list) = error { problems = list }
        self.error = Body(code: error.code, name: error.codeName, message: error.description, problems: problems)
    }
}
