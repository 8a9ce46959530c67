import Foundation
import FulfillmentLedgerTesting
import LedgerCommandLine
import LedgerDevCommands
import FulfillmentLedger
import LedgerSQL
import Testing

/// The package's root folder, found from this file's location.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The repository's sample catalog.
let repoCatalogPath = packageRoot.appendingPathComponent("ProductCatalog.json").path

/// One in-process run of the `ledger` tool.
struct LedgerRun {
    var code: Int32
    var output: String
    var error: String

    /// Standard output parsed as one JSON object.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any], "stdout is not a JSON object: \(output)", sourceLocation: sourceLocation)
    }

    /// The stored revocation record of a notification's `revocation` outcome
    /// (`{"revocation": {"outcome": …, "record": {…}}}`).
    func revocationRecord(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let revocation = try #require(
            try json(sourceLocation: sourceLocation)["revocation"] as? [String: Any], "no revocation: \(output)",
            sourceLocation: sourceLocation)
        return try #require(revocation["record"] as? [String: Any], "no record: \(output)", sourceLocation: sourceLocation)
    }

    /// Standard output parsed as one JSON object per line.
    func jsonLines() throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    /// The lines of standard output.
    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Runs `ledger` with `arguments`, serving `input` on standard input and `environment` as
/// the environment variables: the operator commands and the development commands, as the
/// executable registers them.
func ledger(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async -> LedgerRun {
    // A command that reaches a loopback API does so through URLSession, which must not open its
    // sockets while the parallel suites hold over a thousand descriptors.
    if arguments.contains(where: { $0.hasSuffix("api-base") }) { await ProcessLaunchGuard.fewDescriptors() }
    let captured = CapturedIO(input: input, environment: environment)
    let unclosed = UnclosedStoreCheck.Tally()
    let code = await UnclosedStoreCheck.$tally.withValue(unclosed) {
        await LedgerCommandLine.run(arguments, io: captured.io, developmentCommands: LedgerDevCommands.commands)
    }
    #expect(unclosed.count == 0, "ledger \(arguments.first ?? "") let a store go without close()")
    checkOutputFormat(arguments, output: captured.output)
    return LedgerRun(code: code, output: captured.output, error: captured.error)
}

/// Records an issue for every JSON document of a run that departs from the command's
/// description in Docs/openapi.json (`x-ledger-cli-output`), so every test that runs a command
/// also checks its output's shape.
func checkOutputFormat(_ arguments: [String], output: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let all = LedgerCommandLine.commands(developmentCommands: LedgerDevCommands.commands)
    // A command's help is text, whose lines may quote the JSON it prints.
    guard !arguments.contains("--help"), !arguments.contains("-h"),
        let command = LedgerCommandLine.command(for: arguments, among: all)
    else { return }
    for problem in OutputContract.builtIn.problems(command: command.name, output: output) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}

/// Runs `ledger fulfill` on a ledger and the repository catalog with a transaction document.
func fulfill(_ document: [String: Any], db: String, extra: [String] = []) async throws -> LedgerRun {
    let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    return await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath] + extra, input: String(decoding: data, as: UTF8.self))
}

/// The `player --json` snapshot of a known player.
func playerSnapshot(_ player: String, db: String) async throws -> [String: Any] {
    try #require(try await knownPlayerSnapshot(player, db: db), "player \(player) is unknown")
}

/// The `player --json` snapshot, or nil for a player the ledger holds nothing for (exit 3
/// with the `player.unknown` error body).
func knownPlayerSnapshot(_ player: String, db: String) async throws -> [String: Any]? {
    let run = await ledger(["player", player, "--db", db, "--json"])
    if run.code == 3 {
        let error = try #require(try run.json()["error"] as? [String: Any], "exit 3 without an error body: \(run.output)")
        try #require(error["name"] as? String == "player.unknown", "\(run.output)")
        return nil
    }
    try #require(run.code == 0, "player failed: \(run.error)")
    return try run.json()
}

/// Whether the ledger granted `player` nothing: no record, balance, item or entitlement. A
/// player the ledger holds nothing for has none; one whose submissions were only rejected or
/// failed is known by its attempts, and has none either.
func grantedNothing(_ player: String, db: String) async throws -> Bool {
    guard let snapshot = try await knownPlayerSnapshot(player, db: db) else { return true }
    let lists = ["history", "entitlements"].map { (snapshot[$0] as? [Any])?.isEmpty ?? false }
    let maps = ["balances", "inventory"].map { (snapshot[$0] as? [String: Any])?.isEmpty ?? false }
    return !(lists + maps).contains(false)
}

/// A player's balances from the `player --json` command; a player the ledger holds nothing
/// for has none, so "nothing was granted" reads the same either way.
func balances(_ player: String, db: String) async throws -> [String: Int] {
    guard let snapshot = try await knownPlayerSnapshot(player, db: db) else { return [:] }
    return try #require(snapshot["balances"] as? [String: Int])
}

/// Reads a file's bytes.
func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
