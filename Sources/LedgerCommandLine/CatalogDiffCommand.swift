import FulfillmentLedger

/// `ledger catalog diff OLD NEW [--db LEDGER]`: a safe-change review of a catalog edit.
enum CatalogDiffCommand {
    /// Most products whose sale counts are read from the ledger.
    static let saleCountProductCountMax = 100_000

    static let command = Command(
        words: ["catalog", "diff"],
        summary: "review a catalog change against what the ledger has sold",
        help: """
            usage: ledger catalog diff OLD NEW [--db LEDGER] [--json]

            Lists added, removed and changed products, rewards, limits and store product
            IDs between two catalogs, and flags the dangerous ones: removing or renaming a
            product that has been sold, remapping a store product ID to another product,
            switching consumable and nonConsumable. Changing the rewards of a sold product
            is allowed and explained. With --db, says how many times each product was sold
            (the ledger is only read).

            exit codes: 0 safe, 1 dangerous (or the ledger could not be read; the message
              says which), 65 a catalog is invalid, 66 a file is missing, 64 usage
            """,
        valueOptions: ["db"],
        flagOptions: ["json"],
        run: { arguments, io in
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 2)
                guard arguments.positionals.count == 2 else {
                    throw Arguments.UsageError(message: "OLD and NEW catalog files are required")
                }
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "catalog diff")
            }
            let report: CatalogDiffReport
            do throws(LedgerError) {
                let old = try CatalogLoader.load(path: arguments.positionals[0])
                let new = try CatalogLoader.load(path: arguments.positionals[1])
                var saleCounts: [String: Int]?
                if let database = arguments.value("db") {
                    let store = try LedgerSetup.existingStore(database)
                    saleCounts = try store.read { reader throws(LedgerError) in
                        try reader.saleCountsByProduct(limit: saleCountProductCountMax)
                    }
                }
                report = CatalogDiff.compare(old: old, new: new, saleCounts: saleCounts)
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "catalog diff")
            }
            if arguments.flag("json") {
                io.printJSON(Output(report))
            } else {
                for change in report.changes {
                    io.print("\(change.dangerous ? "DANGEROUS" : "ok       ") \(change.kind.rawValue): \(change.message)")
                }
                let verdict = report.isDangerous ? "dangerous: review every DANGEROUS line before shipping" : "safe"
                io.print("\(report.changes.count) change(s); \(verdict)")
            }
            return report.isDangerous ? .failure : .ok
        })

    struct Output: Encodable {
        var oldVersion: String
        var newVersion: String
        var dangerous: Bool
        var changes: [CatalogChange]

        init(_ report: CatalogDiffReport) {
            oldVersion = report.oldVersion
            newVersion = report.newVersion
            dangerous = report.isDangerous
            changes = report.changes
        }
    }
}
