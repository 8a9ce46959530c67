import FulfillmentLedger

/// `ledger catalog diff OLD NEW [--db LEDGER]`: a safe-change review of a catalog edit.
enum CatalogDiffCommand {
    static let command = Command(
        words: ["catalog", "diff"],
        summary: "review a catalog change against what the ledger has sold",
        positionals: "OLD NEW",
        description: """
            Lists the changes between two catalogs: products added, removed, renamed; their
            kind, rewards, limit, refund policy, family sharing and store product IDs; a
            subscription's period rewards and subscription group; store product IDs moved
            to another product; currencies, items and entitlements added, removed or renamed;
            an entitlement's removesAds and unknownPolicy. Each change is ok (safe), REVIEW
            (takes nothing paid for, but changes what players hold or are offered) or
            DANGEROUS (can take from players what they paid for, or strand or misdirect a paid
            purchase). With --db, says how often each product and store product ID was sold and
            how many players own each entitlement or hold each currency and item (the ledger is
            only read); a change that reaches nobody is then safe.

            exit codes: 0 safe or review only, 1 dangerous (or the ledger could not be read;
              the message says which), 65 a catalog is invalid, 66 a file is missing, 64 usage
            """,
        options: [LedgerDatabase.option.optional.defaulting(nil).helping("a ledger to count sales and holders in (only read)"), CommonOptions.json],
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
            var catalogPath = arguments.positionals[0]
            do throws(LedgerError) {
                let old = try CatalogLoader.load(path: catalogPath)
                catalogPath = arguments.positionals[1]
                let new = try CatalogLoader.load(path: catalogPath)
                var counts: CatalogLedgerCounts?
                if let given = arguments.value(LedgerDatabase.option) {
                    let database = LedgerDatabase(given)
                    counts = try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                        try await store.read { reader throws(LedgerError) in try CatalogLedgerCounts.read(from: reader) }
                    }
                    if counts == nil {
                        io.printError(
                            "ledger catalog diff: \(database) holds more than \(CatalogLedgerCounts.rowCountMax) products, store products or owned IDs to count; every change is judged as if sold and owned")
                    }
                }
                report = CatalogDiff.compare(old: old, new: new, ledger: counts)
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "catalog diff", catalogPath: catalogPath)
            }
            if arguments.flag(CommonOptions.json) {
                io.printJSON(Output(report))
            } else {
                for change in report.changes { io.print("\(label(change.severity)) \(change.kind.rawValue): \(change.message)") }
                io.print("\(report.changes.count) change(s); \(verdict(report.severity))")
            }
            return report.isDangerous ? .failure : .ok
        })

    /// The fixed-width label that starts a change's line.
    static func label(_ severity: CatalogChange.Severity) -> String {
        switch severity {
        case .safe: "ok       "
        case .review: "REVIEW   "
        case .dangerous: "DANGEROUS"
        }
    }

    static func verdict(_ severity: CatalogChange.Severity) -> String {
        switch severity {
        case .safe: "safe"
        case .review: "review: read every REVIEW line before shipping"
        case .dangerous: "dangerous: review every DANGEROUS line before shipping"
        }
    }

    struct Output: Encodable {
        var oldVersion: String
        var newVersion: String
        var severity: CatalogChange.Severity
        var dangerous: Bool
        var changes: [CatalogChange]

        init(_ report: CatalogDiffReport) {
            oldVersion = report.oldVersion
            newVersion = report.newVersion
            severity = report.severity
            dangerous = report.isDangerous
            changes = report.changes
        }
    }
}
