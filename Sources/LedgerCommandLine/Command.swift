/// One `ledger` subcommand: its words, its options declared once, the prose of its help, and
/// what runs it. The usage line and the options of `--help` and of the CLI reference are made
/// from the declarations (`CommandHelp`).
package struct Command: Sendable {
    /// The program that runs it: `ledger`, or `ledger-bench` for the benchmark's own executable.
    package var program = "ledger"
    /// The words that select it, such as `["catalog", "check"]`.
    package var words: [String]
    /// One line for the command table.
    package var summary: String
    /// The positionals as the usage line shows them after the options (`FILE`, `[PLAYER]`).
    package var positionals: String
    /// The prose of the help, between the usage line and the options: what it does, its input
    /// and output, its exit codes.
    package var description: String
    /// Every option it takes (`--help` aside, which every command takes).
    package var options: [CommandOption]
    /// Runs it.
    package var run: @Sendable (Arguments, CommandIO) async -> ExitCode

    /// The flag every command takes.
    static let helpOption = CommandOption.flag("help", help: "print this help")

    /// Creates a command.
    package init(
        program: String = "ledger", words: [String], summary: String, positionals: String = "", description: String,
        options: [CommandOption] = [], run: @escaping @Sendable (Arguments, CommandIO) async -> ExitCode
    ) {
        self.program = program
        self.words = words
        self.summary = summary
        self.positionals = positionals
        self.description = description
        self.options = options
        self.run = run
    }

    /// What it is called in messages: `ledger catalog check`, `ledger-bench`.
    package var name: String { ([program] + words).joined(separator: " ") }

    /// The full `--help` text: the usage line, the prose, then the options.
    package var help: String { CommandHelp.text(self) }

    /// Runs it on the arguments after its words: prints its help for `--help` or `-h` (which
    /// win over any other argument), reports a usage mistake, or runs it.
    package func invoke(_ rest: [String], io: CommandIO) async -> ExitCode {
        if rest.contains("--help") || rest.contains("-h") {
            io.print(help)
            return .ok
        }
        let parsed: Arguments
        do {
            parsed = try Arguments(rest, options: options + [Self.helpOption])
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, program: name)
        }
        return await run(parsed, io)
    }
}
