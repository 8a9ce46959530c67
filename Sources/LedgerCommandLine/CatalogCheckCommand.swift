import Foundation
import FulfillmentLedger

/// `ledger catalog check [FILE]`: validates a catalog and lists every problem.
enum CatalogCheckCommand {
    static let command = Command(
        words: ["catalog", "check"],
        summary: "validate ProductCatalog.json and list every problem",
        help: """
            usage: ledger catalog check [FILE] [--json]

            Validates a product catalog (default: ProductCatalog.json) and prints every
            problem found, one per line, as FILE:LINE:COLUMN: JSON-PATH: message.

            options:
              --json    print {"valid": ..., "problems": [...]} instead of text

            exit codes: 0 valid, 65 invalid, 66 file missing or unreadable, 64 usage
            """,
        flagOptions: ["json"],
        run: { arguments, io in
            do throws(Arguments.UsageError) { try arguments.expectPositionals(max: 1) } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "catalog check")
            }
            return check(path: arguments.positionals.first ?? "ProductCatalog.json", json: arguments.flag("json"), io: io)
        })

    struct Output: Encodable {
        var file: String
        var valid: Bool
        var version: String?
        var productCount: Int?
        var problems: [CatalogProblem]
    }

    static func check(path: String, json: Bool, io: CommandIO) -> ExitCode {
        let catalog: ProductCatalog
        do {
            catalog = try CatalogLoader.load(path: path)
        } catch {
            guard case .catalogInvalid(let problems) = error else {
                return LedgerCommandLine.report(error, io: io, command: "catalog check")
            }
            if json {
                io.printJSON(Output(file: path, valid: false, version: nil, productCount: nil, problems: problems))
            } else {
                for problem in problems {
                    let location = problem.line.map { "\($0):\(problem.column ?? 0)" } ?? "-"
                    io.print("\(path):\(location): \(problem.path): \(problem.message)")
                }
                io.print("\(path): \(problems.count) problem(s); the catalog is not valid")
            }
            return .dataError
        }
        if json {
            io.printJSON(
                Output(
                    file: path, valid: true, version: catalog.versionHash, productCount: catalog.products.count,
                    problems: []))
        } else {
            io.print(
                "\(path): valid: \(catalog.products.count) products, \(catalog.currencies.count) currencies, \(catalog.items.count) items, \(catalog.entitlements.count) entitlements (version \(catalog.versionHash.prefix(12)))"
            )
        }
        return .ok
    }
}
