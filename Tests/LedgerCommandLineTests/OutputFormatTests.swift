import FulfillmentLedger
import FulfillmentLedgerTesting
import Foundation
import LedgerCommandLine
import LedgerDevCommands
import Testing

/// The CLI's machine output is stable (Docs/Output.md): every command that prints JSON is
/// described in Docs/openapi.json (`x-ledger-cli-output`), every document carries the format
/// version and conforms to its command's schema (`ledger(_:)` checks each run of every test), and
/// the description changes only with a CHANGELOG.md entry that names its fingerprint.
@Suite struct OutputFormatTests {
    static let contract = OutputContract.builtIn

    @Test func everyCommandIsDescribedOnce() {
        let registered = Set(LedgerCommandLine.commands(developmentCommands: LedgerDevCommands.commands).map(\.name))
        let described = Set(Self.contract.commandSchemas.keys)
        let textOnly = Set(Self.contract.textOnlyCommands)
        let missing = registered.subtracting(described.union(textOnly)).sorted()
        let unknown = described.union(textOnly).subtracting(registered).sorted()
        #expect(described.isDisjoint(with: textOnly), "both JSON and text only: \(described.intersection(textOnly))")
        #expect(missing.isEmpty, "describe their JSON output in Scripts/openapi-build (CLI_COMMANDS or CLI_TEXT_ONLY): \(missing)")
        #expect(unknown.isEmpty, "no such commands: \(unknown)")
        for (name, schema) in Self.contract.commandSchemas {
            #expect(!OutputContract.references(in: schema).isEmpty, "\(name): its schema is a component ($ref)")
        }
    }

    @Test func theDocumentStatesTheFormatVersion() {
        let stated = Self.contract.description["formatVersion"].map(OutputSchemaValidator.text)
        #expect(stated == "\(LedgerOutputFormat.version)", "CLI_FORMAT_VERSION in Scripts/openapi-build is LedgerOutputFormat.version")
    }

    @Test func theChangelogNamesTheDescriptionsFingerprint() throws {
        let fingerprint = Self.contract.fingerprint
        let written = Self.contract.description["fingerprint"].map(OutputSchemaValidator.text)
        #expect(written == JSONValue.encodeString(fingerprint), "run Scripts/openapi-build: the document's fingerprint is stale")
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let entry = "CLI JSON output format \(LedgerOutputFormat.version) (description \(fingerprint))"
        #expect(
            changelog.contains(entry),
            """
            The description of the CLI's JSON output changed (x-ledger-cli-output in Docs/openapi.json). \
            Add a CHANGELOG.md entry that says what changed and names "\(entry)". If the change can break a \
            reader (a field removed, renamed, moved or given another type), first raise LedgerOutputFormat.version \
            and CLI_FORMAT_VERSION in Scripts/openapi-build; a new field or command is not breaking (Docs/Output.md).
            """)
    }

    @Test func aFieldRenamedOrMovedFails() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try #require(try await fulfill(["transactionID": "ads-1", "productID": "test.remove_ads", "playerID": "p1"], db: db).code == 0)
        let revoked = await ledger(
            ["revoke", "--db", db, "--catalog", repoCatalogPath],
            input: #"{"eventID":"n-1","store":"test","transactionID":"ads-1","kind":"fullRefund","eventDate":"2026-11-02T10:00:00Z"}"#)
        let line = revoked.output.trimmingCharacters(in: .newlines)
        #expect(Self.contract.problems(command: "ledger revoke", output: line).isEmpty)
        let moved = try Self.edited(line) { object in
            var record = try #require(object["record"] as? [String: Any])
            object["disposition"] = record.removeValue(forKey: "disposition")
            object["record"] = record
        }
        #expect(!Self.contract.problems(command: "ledger revoke", output: moved).isEmpty, "disposition moved out of record")
        let renamed = try Self.edited(line) { object in object["result"] = object.removeValue(forKey: "outcome") }
        #expect(!Self.contract.problems(command: "ledger revoke", output: renamed).isEmpty, "outcome renamed")
        let unversioned = try Self.edited(line) { object in object[LedgerOutputFormat.versionKey] = nil }
        #expect(!Self.contract.problems(command: "ledger revoke", output: unversioned).isEmpty, "no format version")
        let retyped = try Self.edited(line) { object in object["outcome"] = 1 }
        #expect(!Self.contract.problems(command: "ledger revoke", output: retyped).isEmpty, "outcome retyped")
        // An RTDN's fulfillment is nested under `fulfillment`; its fields at the top level fail.
        let flattened = #"{"formatVersion":1,"granted":[],"outcome":"fulfillment"}"#
        #expect(!Self.contract.problems(command: "ledger playstore rtdn", output: flattened).isEmpty, "fulfillment flattened")
    }

    /// The core commands on realistic input: each prints a described document (`ledger(_:)`
    /// checks it against its schema). The store commands are checked the same way by their own
    /// suites, which run them against the simulated stores.
    @Test func theCoreCommandsPrintDescribedDocuments() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let catalog = ["--db", db, "--catalog", repoCatalogPath]
        var runs: [(name: String, run: LedgerRun)] = [("ledger init", await ledger(["init", "--db", db]))]
        // Granted, already fulfilled, rejected (another product under t1), granted.
        for (transaction, product) in [("t1", "remove_ads"), ("t1", "remove_ads"), ("t1", "gems_small"), ("t2", "gems_small")] {
            let purchase = ["transactionID": transaction, "productID": "test." + product, "playerID": "p1"]
            runs.append(("ledger fulfill", try await fulfill(purchase, db: db)))
        }
        let refund = #"{"eventID":"r1","store":"test","transactionID":"t2","kind":"fullRefund","eventDate":"2026-11-02T10:00:00Z"}"#
        runs.append(("ledger revoke", await ledger(["revoke"] + catalog, input: refund)))
        let list = #"[{"transactionID":"t3","productID":"test.gems_large","playerID":"p1"}]"#
        runs.append(("ledger restore", await ledger(["restore", "--player", "p1"] + catalog, input: list)))
        let commands = [
            ["lookup", "t1", "--db", db, "--json"], ["player", "p1", "--db", db, "--json"],
            ["history", "--player", "p1", "--db", db, "--json"], ["entitlements", "--player", "p1", "--json"] + catalog,
            ["subscriptions", "--player", "p1", "--json"] + catalog, ["doctor", "--db", db, "--json"], ["recover"] + catalog,
            ["reset", "p1", "--db", db], ["catalog", "check", repoCatalogPath, "--json"],
            ["catalog", "diff", repoCatalogPath, repoCatalogPath, "--json"],
            ["catalog", "explain", "test.gems_small", "--catalog", repoCatalogPath, "--json"],
            ["workload", "--seed", "1", "--count", "3"] + catalog,
            ["demo", "--db", scratch.path("demo.sqlite"), "--catalog", repoCatalogPath, "--json"],
            ["simulate", "--seed", "1", "--runs", "1", "--steps", "5", "--db-dir", scratch.url.path, "--json"],
        ]
        let all = LedgerCommandLine.commands(developmentCommands: LedgerDevCommands.commands)
        for arguments in commands {
            let command = try #require(LedgerCommandLine.command(for: arguments, among: all))
            runs.append((command.name, await ledger(arguments)))
        }
        for (name, run) in runs {
            #expect(run.output.hasPrefix("{"), "\(name) printed no JSON: \(run.output) \(run.error)")
            #expect(Self.contract.commandSchemas[name] != nil && Self.contract.problems(command: name, output: run.output).isEmpty)
        }
        let outcomes = Set(runs.filter { $0.name == "ledger fulfill" }.compactMap { try? $0.run.json()["outcome"] as? String })
        #expect(outcomes == ["granted", "alreadyFulfilled", "rejected"])
    }

    /// `line` parsed, changed by `change` and written again.
    static func edited(_ line: String, _ change: (inout [String: Any]) throws -> Void) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        try change(&object)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
