import Foundation
import FulfillmentLedgerTesting
import Testing

/// Bad input is refused precisely: unknown stdin fields and malformed stdin with their line and
/// column (exit 65), misspelt options and commands with the nearest right one (exit 64), and an
/// invalid catalog with the command that lists its problems.
@Suite struct InputRefusalTests {
    @Test("a misspelt \"quantyty\" is refused with exit 65, its line and column, and the fix; nothing is granted")
    func misspeltQuantityIsRefused() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let input = "{\"transactionID\":\"t1\",\"productID\":\"test.gems_small\",\n \"playerID\":\"p1\", \"quantyty\": 2}"
        let run = await ledger(["fulfill", "--db", db, "--catalog", repoCatalogPath], input: input)
        #expect(run.code == 65)
        // Standard output carries the one error body, with the first problem's place.
        let error = try #require(try run.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "input.invalid" && error["code"] as? Int == 3003)
        #expect(error["path"] as? String == "$.quantyty" && error["line"] as? Int == 2 && error["column"] as? Int == 19)
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(lines == [
            "ledger fulfill: stdin is not a transaction object:",
            #"stdin:2:19: $.quantyty: unknown field "quantyty" (a typo?); did you mean "quantity"?"#,
        ])
        #expect(try directory.fileNames().isEmpty, "the input is refused before the ledger is opened")
    }

    /// Documents `ledger fulfill` refuses, with the located line it must print.
    static let refusedTransactions: [(input: String, line: String)] = [
        (#"{"transactionId":"t1","productID":"test.gems_small","playerID":"p1"}"#,
         #"stdin:1:2: $.transactionId: unknown field "transactionId" (a typo?); did you mean "transactionID"?"#),
        (#"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1","price":1}"#,
         #"stdin:1:69: $.price: unknown field "price" (a typo?); allowed here: "accountBinding", "environment", "originalTransactionID", "playerID", "productID", "purchaseDate", "quantity", "revocationDate", "state", "store", "transactionID", "verified""#),
        (#"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1","quantity":2.0}"#,
         "stdin:1:80: $.quantity: expected a whole number, found 2.0"),
        (#"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1","quantity":"2"}"#,
         "stdin:1:80: $.quantity: expected a whole number, found string"),
        (#"{"transactionID":"t1","productID":"test.gems_small"}"#, #"stdin:1:1: $: missing required field "playerID""#),
        ("{\"transactionID\":\"t1\",\n  \"productID\":}", #"stdin:2:15: $: not valid JSON: unexpected character "}""#),
        (#"{"transactionID":"t1","transactionID":"t2"}"#, #"stdin:1:23: $: not valid JSON: duplicate key "transactionID""#),
        (#"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1","purchaseDate":"yesterday"}"#,
         "stdin:1:84: $.purchaseDate: expected an RFC 3339 date such as 2026-11-29T12:00:00Z"),
        ("[]", "stdin:1:1: $: expected an object, found array"),
    ]

    @Test("ledger fulfill locates every refused document", arguments: refusedTransactions.indices)
    func fulfillLocatesTheProblem(index: Int) async throws {
        let (input, line) = Self.refusedTransactions[index]
        let directory = try ScratchDirectory()
        let run = await ledger(["fulfill", "--db", directory.path("ledger.sqlite"), "--catalog", repoCatalogPath], input: input)
        #expect(run.code == 65)
        #expect(run.error.split(separator: "\n").map(String.init).dropFirst().first == line, "\(run.error)")
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("ledger revoke and ledger restore refuse unknown fields too, and change nothing")
    func revokeAndRestoreRefuseUnknownFields() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        try #require(try await fulfill(["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"], db: db).code == 0)
        let event = #"{"eventID":"e1","store":"test","transactionID":"t1","kind":"fullRefund","eventDate":"2026-11-29T12:00:00Z","reson":"x"}"#
        let revoke = await ledger(["revoke", "--db", db, "--catalog", repoCatalogPath], input: event)
        #expect(revoke.code == 65)
        #expect(revoke.error.contains(#"stdin:1:108: $.reson: unknown field "reson" (a typo?); did you mean "reason"?"#), "\(revoke.error)")

        let restore = ["restore", "--db", db, "--catalog", repoCatalogPath, "--player", "p1"]
        let listed = #"{"transactions":[{"transactionID":"t2","productID":"test.gems_small","playerID":"p1","quantyty":3}]}"#
        let nested = await ledger(restore, input: listed)
        #expect(nested.code == 65)
        #expect(nested.error.contains(#"stdin:1:86: $.transactions[0].quantyty: unknown field "quantyty""#), "\(nested.error)")
        let bare = await ledger(restore, input: #"[{"transactionID":"t2","productID":"test.gems_small","playerID":"p1"}, {"transactionID":"t3"}]"#)
        #expect(bare.code == 65)
        #expect(bare.error.contains(#"stdin:1:72: $[1]: missing required field "productID""#), "\(bare.error)")
        let topLevel = await ledger(restore, input: #"{"transactions":[],"authoritive":true}"#)
        #expect(topLevel.code == 65)
        #expect(topLevel.error.contains(#"$.authoritive: unknown field "authoritive" (a typo?); did you mean "authoritative"?"#))

        #expect(try await balances("p1", db: db) == ["gems": 100], "nothing was taken back or granted")
    }

    @Test("a misspelt option, command or subcommand exits 64 with the nearest right one",
        arguments: [
            (["doctor", "--dbb", "x"], "unknown option --dbb; did you mean --db?"),
            (["catalog", "diff", "a", "b", "--jsn"], "unknown option --jsn; did you mean --json?"),
            (["fulfil", "--db", "x"], #"unknown command "fulfil"; did you mean `ledger fulfill`?"#),
            (["histroy"], #"unknown command "histroy"; did you mean `ledger history`?"#),
            (["catalog", "chek"], #"unknown subcommand "chek"; did you mean `ledger catalog check`?"#),
            (["appstore", "verfy"], #"unknown subcommand "verfy"; did you mean `ledger appstore verify`?"#),
            (["frobnicate"], #"unknown command "frobnicate"; run `ledger --help` for the list"#),
            (["doctor", "--frobnicate"], "unknown option --frobnicate\n"),
        ])
    func misspeltCommandLine(arguments: [String], message: String) async {
        let run = await ledger(arguments)
        #expect(run.code == 64)
        #expect(run.output.isEmpty)
        #expect(run.error.contains(message), "\(run.error)")
    }

    @Test("an invalid catalog points to ledger catalog check with its path")
    func invalidCatalogPointsToTheCheck() async throws {
        let directory = try ScratchDirectory()
        let sample = try String(contentsOfFile: repoCatalogPath, encoding: .utf8)
        let catalog = try directory.write(sample.replacingOccurrences(of: #""amount": 100 }"#, with: #""amount": 0 }"#), to: "Broken.json")
        let purchase = #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#
        for arguments in [
            ["fulfill", "--db", directory.path("ledger.sqlite"), "--catalog", catalog], ["catalog", "explain", "gems_small", "--catalog", catalog],
            ["demo", "--catalog", catalog], ["catalog", "diff", repoCatalogPath, catalog],
        ] {
            let run = await ledger(arguments, input: purchase)
            #expect(run.code == 65, "\(arguments)")
            #expect(run.error.contains("run `ledger catalog check \(catalog)` to list every problem with its line and column"), "\(arguments): \(run.error)")
        }
    }
}
