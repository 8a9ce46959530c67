import Foundation
import FulfillmentLedger
import PostgresLedgerStore
import SQLiteLedgerStore
import FulfillmentLedgerTesting
import Testing

@testable import LedgerCommandLine

/// The `ledger` tool as a whole: help, usage errors, commands that need an existing ledger, and the demo.
@Suite("ledger command line")
struct LedgerCommandLineTests {
    /// The commands every build must have.
    static let requiredCommands = [
        ["demo"], ["catalog", "check"], ["fulfill"], ["recover"], ["player"], ["reset"], ["doctor"],
    ]

    /// Every registered command, including ones added after these tests were written.
    static var allCommands: [[String]] {
        var words = LedgerCommandLine.commands.map(\.words)
        for required in requiredCommands where !words.contains(required) { words.append(required) }
        return words
    }

    @Test("every command's --help exits 0 and prints its usage line", arguments: allCommands)
    func commandHelp(words: [String]) async {
        for flag in ["--help", "-h"] {
            let run = await ledger(words + [flag])
            #expect(run.code == 0, "\(words) \(flag): \(run.error)")
            #expect(run.outputLines.contains { $0.hasPrefix("usage: ledger \(words.joined(separator: " "))") }, "\(run.output)")
            #expect(run.error.isEmpty)
        }
        // --help wins over any other argument, even wrong ones.
        let withJunk = await ledger(words + ["--no-such-option", "--help"])
        #expect(withJunk.code == 0)
    }

    @Test("ledger --version prints the release from LedgerVersion and each engine's schema version", arguments: [["--version"], ["version"]])
    func version(arguments: [String]) async throws {
        let run = await ledger(arguments)
        #expect(run.code == 0 && run.error.isEmpty)
        let schemas = "SQLite \(SQLiteLedgerStore.schemaVersion), PostgreSQL \(PostgresLedgerStore.schemaVersion)"
        #expect(run.output == "ledger \(LedgerVersion.current) (schema: \(schemas))\n", "\(run.output)")
        // The release follows semantic versioning, and CHANGELOG.md has its entry.
        let parts = LedgerVersion.current.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## \(LedgerVersion.current) "), "CHANGELOG.md has no entry for \(LedgerVersion.current)")
    }

    @Test("every exit code the commands use is in ledger --help")
    func helpNamesEveryExitCode() async {
        let help = await ledger(["--help"])
        for code in [0, 1, 3, 64, 65, 66, 70, 73, 77] {
            #expect(help.output.contains(" \(code) "), "exit code \(code) is missing from ledger --help")
        }
    }

    @Test("ledger --help lists every command with a summary", arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelp(arguments: [String]) async {
        let run = await ledger(arguments)
        #expect(run.code == 0)
        #expect(run.outputLines.contains { $0.hasPrefix("usage:") })
        for words in Self.allCommands {
            let name = words.joined(separator: " ")
            #expect(run.outputLines.contains { $0.hasPrefix("  \(name) ") }, "\(name) missing from:\n\(run.output)")
        }
    }

    @Test("ledger with no arguments prints the usage and exits 64")
    func noArguments() async {
        let run = await ledger([])
        #expect(run.code == 64)
        #expect(run.outputLines.contains { $0.hasPrefix("usage:") })
    }

    @Test("an unknown command exits 64 and names it", arguments: ["frobnicate", "catalogue", "--version", "Fulfill"])
    func unknownCommand(name: String) async {
        let run = await ledger([name, "--db", "x"])
        #expect(run.code == 64)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("unknown command \"\(name)\""))
    }

    @Test("`catalog` without a subcommand is an unknown command")
    func catalogWithoutSubcommand() async {
        let run = await ledger(["catalog"])
        #expect(run.code == 64)
    }

    /// The commands that need an existing ledger, with `DB` standing for the database path.
    static let existingLedgerCommands: [[String]] = [
        ["player", "p1", "--db", "DB"], ["reset", "p1", "--db", "DB"], ["doctor", "--db", "DB"],
        ["doctor", "--db", "DB", "--json"], ["recover", "--db", "DB", "--catalog", "CATALOG"],
    ]

    @Test("a command on a missing ledger exits 66 and does not create it", arguments: existingLedgerCommands)
    func missingLedger(arguments: [String]) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("absent.sqlite")
        let resolved = arguments.map { $0 == "DB" ? db : $0 == "CATALOG" ? repoCatalogPath : $0 }
        let run = await ledger(resolved)
        #expect(run.code == 66, "\(run.output)\(run.error)")
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "ledger.missing")
        #expect(error["code"] as? Int == 1005)
        #expect(try directory.fileNames().isEmpty)
    }

    @Test(
        "a command without its required options is a usage error",
        arguments: [
            ["player"], ["player", "p1"], ["player", "--db", "x"], ["player", "p1", "p2", "--db", "x"], ["reset", "p1"],
            ["doctor"], ["doctor", "extra", "--db", "x"], ["recover", "--db", "x"], ["recover", "--catalog", "x"],
            ["demo", "extra"], ["doctor", "--db"],
        ])
    func missingOptions(arguments: [String]) async {
        let run = await ledger(arguments)
        #expect(run.code == 64, "\(arguments): \(run.error)")
        #expect(run.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "x"))
    }

    @Test("the demo runs every step on its own temporary ledger and exits 0")
    func demoText() async throws {
        let run = await ledger(["demo", "--catalog", repoCatalogPath])
        #expect(run.code == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("demo finished: every step behaved as promised"))
        #expect(run.error.isEmpty)
        // "ledger demo: catalog FILE, ledger PATH": the demo made its own ledger in a new temporary folder.
        let header = try #require(run.outputLines.first { $0.hasPrefix("ledger demo: catalog ") })
        let ledgerPath = try #require(header.components(separatedBy: ", ledger ").last)
        let folder = URL(fileURLWithPath: ledgerPath).deletingLastPathComponent()
        #expect(folder.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(folder.lastPathComponent.hasPrefix("ledger-demo-"))
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the demo removes the temporary folder it made")
    }

    @Test("demo --json prints one JSON object per step")
    func demoJSON() async throws {
        let directory = try ScratchDirectory()
        let run = await ledger(["demo", "--catalog", repoCatalogPath, "--json", "--db", directory.path("demo.sqlite")])
        #expect(run.code == 0, "\(run.error)")
        let steps = try run.jsonLines()
        #expect(steps.count >= 7)
        #expect(steps.allSatisfy { $0["step"] is String && $0["detail"] is String })
        #expect(steps.first?["step"] as? String == "1. purchase")
        let titles = steps.compactMap { $0["step"] as? String }
        #expect(titles.contains("11. web shop (Stripe Checkout)") && titles.contains("12. Steam"), "\(titles)")
    }

    @Test("demo --db writes the demo ledger where asked; doctor finds it healthy with nothing pending")
    func demoWithDatabase() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("demo.sqlite")
        let run = await ledger(["demo", "--catalog", repoCatalogPath, "--db", db, "--json"])
        #expect(run.code == 0, "\(run.error)")
        let doctor = await ledger(["doctor", "--db", db, "--json"])
        #expect(doctor.code == 0)
        let report = try doctor.json()
        #expect(report["healthy"] as? Bool == true)
        #expect((report["pendingFinishes"] as? [Any])?.isEmpty == true)
        #expect((report["transactionCount"] as? Int ?? 0) >= 5)
    }

    @Test("the demo with a missing catalog exits 66")
    func demoMissingCatalog() async throws {
        let directory = try ScratchDirectory()
        let run = await ledger(["demo", "--catalog", directory.path("absent.json"), "--db", directory.path("demo.sqlite")])
        #expect(run.code == 66)
    }
}

/// `--` ends the options, so an ID that starts with `--` can be named.
@Suite struct EndOfOptionsTests {
    @Test("after a lone --, every argument is a positional, even one that starts with --")
    func doubleDashEndsOptions() throws {
        let options = [LedgerDatabase.option, CommonOptions.json]
        let parsed = try Arguments(["--db", "x.sqlite", "--", "--weird", "--json", "--"], options: options)
        #expect(parsed.value(LedgerDatabase.option) == "x.sqlite")
        #expect(parsed.positionals == ["--weird", "--json", "--"])
        #expect(!parsed.flag(CommonOptions.json))
        #expect(throws: Arguments.UsageError.self) { try Arguments(["--weird"], options: options) }
    }

    @Test("a player whose ID starts with -- is looked up after --")
    func aPlayerIDAfterDoubleDash() async throws {
        let directory = try ScratchDirectory()
        let database = directory.path("ledger.sqlite")
        #expect(await ledger(["init", "--db", database]).code == 0)
        let run = await ledger(["player", "--db", database, "--", "--weird"])
        #expect(run.code == 3, "\(run.output) \(run.error)")
        #expect(run.error.contains("unknown player \"--weird\""), "\(run.error)")
    }
}
