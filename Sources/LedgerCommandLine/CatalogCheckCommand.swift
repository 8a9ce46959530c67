import Foundation
import FulfillmentLedger

/// `ledger catalog check [FILE]`: validates a catalog and lists every problem.
enum CatalogCheckCommand {
    /// `--amount-warning N`.
    static let amountWarning = CommandOption(
        "amount-warning", "N", default: "1000000", help: "warn about reward amounts above N (a whole number, 1 or more)")

    static let command = Command(
        words: ["catalog", "check"],
        summary: "validate ProductCatalog.json and list every problem",
        positionals: "[FILE]",
        description: """
            Validates a product catalog (default: ProductCatalog.json) and prints every
            problem found, one per line, as FILE:LINE:COLUMN: JSON-PATH: message.
            Warnings flag suspicious values (an amount above the sanity bound, two products
            with identical rewards that are not tiers of one group, a limit of 0, a
            consumable granting an entitlement, an autoRenewable without periodRewards
            granting what a nonConsumable grants, a playPurchaseOption of a Google Play
            product ID no product maps plainly); they do not fail the check.

            output fields (--json): file, valid, productCount, version, problems, warnings
              (each with its line, column, path, severity and message)

            exit codes: 0 valid (even with warnings), 65 invalid, 66 file missing or
              unreadable, 64 usage
            """,
        options: [CommonOptions.json, amountWarning],
        run: { arguments, io in
            var options = CatalogLinter.Options()
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 1)
                if let text = arguments.value(amountWarning) {
                    guard let bound = Int64(text), bound >= 1 else {
                        throw Arguments.UsageError(message: "--amount-warning needs a positive whole number")
                    }
                    options.amountWarningThreshold = bound
                }
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "catalog check")
            }
            let path = arguments.positionals.first ?? "ProductCatalog.json"
            return check(path: path, options: options, json: arguments.flag(CommonOptions.json), io: io)
        })

    struct Output: Encodable {
        var file: String
        var valid: Bool
        var version: String?
        var productCount: Int?
        var problems: [CatalogProblem]
        var warnings: [CatalogProblem]
    }

    static func check(path: String, options: CatalogLinter.Options, json: Bool, io: CommandIO) -> ExitCode {
        let bytes: [UInt8]
        do throws(LedgerError) {
            bytes = try CatalogLoader.readBytes(path: path)
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "catalog check")
        }
        let result = CatalogLoader.check(bytes, lint: options)
        if json {
            io.printJSON(
                Output(
                    file: path, valid: result.catalog != nil, version: result.catalog?.versionHash,
                    productCount: result.catalog?.products.count, problems: result.errors, warnings: result.warnings))
        } else {
            for problem in result.errors + result.warnings { io.print(format(problem, file: path)) }
            if let catalog = result.catalog {
                io.print(
                    "\(path): valid: \(catalog.products.count) products, \(catalog.currencies.count) currencies, \(catalog.items.count) items, \(catalog.entitlements.count) entitlements, \(result.warnings.count) warning(s) (version \(catalog.versionHash.prefix(12)))"
                )
            } else {
                io.print("\(path): \(result.errors.count) problem(s); the catalog is not valid")
            }
        }
        return result.catalog == nil ? .dataError : .ok
    }

    /// `FILE:LINE:COLUMN: [warning: ]PATH: message`.
    static func format(_ problem: CatalogProblem, file: String) -> String {
        let location = problem.line.map { "\($0):\(problem.column ?? 0)" } ?? "-"
        return "\(file):\(location): \(problem.description)"
    }
}
