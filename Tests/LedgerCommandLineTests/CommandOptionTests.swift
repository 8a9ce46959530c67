import Foundation
import LedgerDevCommands
import Testing

@testable import LedgerCommandLine

/// Each command declares its options once; parsing, `--help` and Docs/CLI.md are made from the
/// declarations, so they cannot drift apart.
@Suite("declared options")
struct CommandOptionTests {
    /// Every command of the `ledger` executable.
    static let commands = LedgerCommandLine.commands + LedgerDevCommands.commands

    static var commandNames: [String] { commands.map(\.name) }

    static func command(_ name: String) -> Command {
        commands.first { $0.name == name }!
    }

    @Test("no two options of a command share a name", arguments: commandNames)
    func namesAreUnique(name: String) {
        let names = Self.command(name).options.map(\.name) + ["help"]
        #expect(Set(names).count == names.count, "\(name): \(names.sorted())")
    }

    @Test("--help lists exactly the declared options, each once", arguments: commandNames)
    func helpListsTheDeclaredOptions(name: String) {
        let command = Self.command(name)
        let listed = command.help.split(separator: "\n").filter { $0.hasPrefix("  --") }
            .map { String($0.dropFirst(4).prefix { $0 != " " }) }
        let declared = command.options.filter { !$0.isHidden }.map(\.name)
        #expect(listed.sorted() == declared.sorted(), "\(name)")
        #expect(command.help.hasPrefix("usage: \(name)"))
    }

    @Test("parsing accepts every declared option and refuses any other", arguments: commandNames)
    func parsingFollowsTheDeclarations(name: String) throws {
        let command = Self.command(name)
        for option in command.options {
            let arguments = option.kind == .flag ? ["--\(option.name)"] : ["--\(option.name)", "x"]
            let parsed = try Arguments(arguments, options: command.options)
            #expect(parsed.isGiven(option), "\(name) --\(option.name)")
        }
        let error = #expect(throws: Arguments.UsageError.self) {
            try Arguments(["--no-such-option"], options: command.options)
        }
        #expect(error?.message.hasPrefix("unknown option --no-such-option") == true)
    }

    @Test("a misspelt option gets the nearest declared one")
    func didYouMean() {
        let error = #expect(throws: Arguments.UsageError.self) {
            try Arguments(["--dbb", "x"], options: [LedgerDatabase.option, CommonOptions.json])
        }
        #expect(error?.message == "unknown option --dbb; did you mean --db?")
    }

    @Test("a ranged option is checked against its declaration")
    func rangeComesFromTheDeclaration() throws {
        let limit = CommonOptions.limit(max: 50, of: "rows")
        #expect(try Arguments([], options: [limit]).integer(limit) == 50)
        #expect(try Arguments(["--limit", "7"], options: [limit]).integer(limit) == 7)
        let error = #expect(throws: Arguments.UsageError.self) {
            try Arguments(["--limit", "51"], options: [limit]).integer(limit)
        }
        #expect(error?.message == "--limit needs a whole number from 1 to 50")
        #expect(limit.defaultAndRange == "default 50; 1 to 50")
    }

    @Test("Docs/CLI.md holds the reference the declarations generate")
    func cliReferenceIsCurrent() throws {
        let url = packageRoot.appendingPathComponent("Docs/CLI.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = try #require(text.range(of: CommandReference.beginMarker + "\n"), "no \(CommandReference.beginMarker)")
        let end = try #require(text.range(of: CommandReference.endMarker, range: begin.upperBound..<text.endIndex))
        let generated = CommandReference.markdown(
            commands: LedgerCommandLine.commands, developmentCommands: LedgerDevCommands.commands)
        #expect(
            String(text[begin.upperBound..<end.lowerBound]) == generated,
            """
            Docs/CLI.md's generated reference is out of date: run `swift run ledger help --markdown` and paste its \
            output between the \(CommandReference.beginMarker) and \(CommandReference.endMarker) lines
            """)
        #expect(text.utf8.count <= 26_000, "Docs/CLI.md has \(text.utf8.count) bytes; keep it at most 26,000")
    }
}
