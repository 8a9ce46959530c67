import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger catalog check`: a valid catalog passes; a broken one lists every problem, located, in one run.
@Suite("ledger catalog check")
struct CatalogCheckCommandTests {
    /// One catalog with many independent mistakes; line numbers matter to the assertions below.
    static let brokenCatalog = """
        {
          "schemaVersion": 2,
          "currencies": [{ "id": "gems" }],
          "items": [],
          "entitlements": [],
          "products": [
            {
              "id": "gems_small", "kind": "consumable",
              "storeProductIDs": { "test": "test.gems" },
              "rewards": { "currencies": [{ "id": "gems", "amount": 0 }] }
            },
            {
              "id": "gems_small", "kind": "consumable",
              "storeProductIDs": { "test": "test.rubies" },
              "rewards": { "currencies": [{ "id": "rubies", "amount": 5 }] }
            },
            {
              "id": "coins_pack", "kind": "consumable",
              "storeProductIDs": { "test": "test.gems" },
              "rewards": { "currencies": [{ "id": "gems", "ammount": 5 }] }
            },
            {
              "id": "nothing", "kind": "consumable",
              "storeProductIDs": { "test": "test.nothing" },
              "rewards": {}
            }
          ]
        }
        """

    /// Every mistake in `brokenCatalog`: its JSON path, the line it is on, and a word its message must use.
    static let expectedProblems: [(path: String, line: Int, keyword: String)] = [
        ("$.schemaVersion", 2, "not supported"),
        ("$.products[0].rewards.currencies[0].amount", 10, "too small"),
        ("$.products[1].id", 13, "duplicate"),
        ("$.products[1].rewards.currencies[0].id", 15, "rubies"),
        ("$.products[2].rewards.currencies[0].ammount", 20, "unknown field \"ammount\""),
        ("$.products[2].storeProductIDs.test", 19, "already mapped"),
        ("$.products[3].rewards", 25, "empty"),
    ]

    @Test("the repository's catalog is valid", arguments: [false, true])
    func repositoryCatalogValid(json: Bool) async throws {
        let run = await ledger(["catalog", "check", repoCatalogPath] + (json ? ["--json"] : []))
        #expect(run.code == 0, "\(run.output)\(run.error)")
        if json {
            let object = try run.json()
            #expect(object["valid"] as? Bool == true)
            #expect((object["problems"] as? [Any])?.isEmpty == true)
            #expect((object["productCount"] as? Int ?? 0) >= 6)
            #expect((object["version"] as? String)?.count == 64)
            #expect(object["file"] as? String == repoCatalogPath)
        } else {
            #expect(run.output.hasPrefix("\(repoCatalogPath): valid: "))
            #expect(run.output.contains("products"))
        }
    }

    @Test("a catalog broken in many ways reports every problem with its JSON path in text mode")
    func brokenCatalogText() async throws {
        let directory = try ScratchDirectory()
        let path = try directory.write(Self.brokenCatalog, to: "broken.json")
        let run = await ledger(["catalog", "check", path])
        #expect(run.code == 65)
        let lines = run.outputLines.filter { !$0.isEmpty }
        for problem in Self.expectedProblems {
            // FILE:LINE:COLUMN: PATH: message
            let match = lines.first { line in
                line.hasPrefix("\(path):\(problem.line):") && line.contains(": \(problem.path): ")
                    && line.contains(problem.keyword)
            }
            #expect(match != nil, "no line for \(problem.path) on line \(problem.line) in:\n\(run.output)")
        }
        #expect(lines.last?.hasSuffix("problem(s); the catalog is not valid") == true)
        let count = try #require(lines.last?.split(separator: ":").dropFirst().first?.split(separator: " ").first)
        #expect(Int(count) ?? 0 >= Self.expectedProblems.count)
    }

    @Test("a catalog broken in many ways reports every problem with its JSON path, line and column in JSON mode")
    func brokenCatalogJSON() async throws {
        let directory = try ScratchDirectory()
        let path = try directory.write(Self.brokenCatalog, to: "broken.json")
        let run = await ledger(["catalog", "check", path, "--json"])
        #expect(run.code == 65)
        let object = try run.json()
        #expect(object["valid"] as? Bool == false)
        #expect(object["file"] as? String == path)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.count >= Self.expectedProblems.count)
        for expected in Self.expectedProblems {
            let found = problems.first { problem in
                problem["path"] as? String == expected.path
                    && (problem["message"] as? String)?.contains(expected.keyword) == true
            }
            let problem = try #require(found, "no problem at \(expected.path) in \(problems)")
            #expect(problem["line"] as? Int == expected.line, "\(expected.path)")
            #expect((problem["column"] as? Int ?? 0) >= 1, "\(expected.path)")
        }
        #expect(problems.allSatisfy { ($0["severity"] as? String ?? "error") == "error" })
    }

    @Test("invalid JSON syntax is one problem at $ with its line and column", arguments: [false, true])
    func syntaxError(json: Bool) async throws {
        let directory = try ScratchDirectory()
        let path = try directory.write("{\n  \"schemaVersion\": 1,\n  \"currencies\": [,]\n}\n", to: "syntax.json")
        let run = await ledger(["catalog", "check", path] + (json ? ["--json"] : []))
        #expect(run.code == 65)
        if json {
            let problems = try #require(try run.json()["problems"] as? [[String: Any]])
            #expect(problems.count == 1)
            #expect(problems.first?["path"] as? String == "$")
            #expect(problems.first?["line"] as? Int == 3)
            #expect(problems.first?["column"] as? Int == 18)
            #expect((problems.first?["message"] as? String)?.contains("not valid JSON") == true)
        } else {
            #expect(run.outputLines.first?.hasPrefix("\(path):3:18: $: not valid JSON") == true, "\(run.output)")
        }
    }

    @Test("a missing catalog file exits 66 with a catalog.unreadable error")
    func missingFile() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("absent.json")
        let run = await ledger(["catalog", "check", path])
        #expect(run.code == 66)
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["code"] as? Int == 2002)
        #expect(error["name"] as? String == "catalog.unreadable")
        #expect(run.error.contains(path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("an empty file and a non-object document are invalid, not unreadable", arguments: ["", "[]", "42", "null"])
    func notACatalogObject(text: String) async throws {
        let directory = try ScratchDirectory()
        let path = try directory.write(text, to: "odd.json")
        let run = await ledger(["catalog", "check", path, "--json"])
        #expect(run.code == 65)
        let problems = try #require(try run.json()["problems"] as? [[String: Any]])
        #expect(problems.first?["path"] as? String == "$")
    }

    @Test("two files or an unknown option is a usage error", arguments: [["a.json", "b.json"], ["--strict"]])
    func usageErrors(extra: [String]) async {
        let run = await ledger(["catalog", "check"] + extra)
        #expect(run.code == 64)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("--help"))
    }
}
