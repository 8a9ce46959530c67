import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// `ledger playstore rtdn` and `ledger playstore voided-sync`: Google Play notifications and
/// voided purchases into a ledger.
enum PlayStoreLedgerCommands {
    /// Largest push body read.
    static let bodyByteCountMax = 64 * 1024

    static let rtdn = Command(
        words: ["playstore", "rtdn"],
        summary: "apply one Google Play real-time developer notification read from stdin",
        help: """
            usage: ledger playstore rtdn --db FILE --catalog FILE --package NAME
                     (--service-account FILE [--api-base URL] | --purchases FILE)

            Reads one Pub/Sub push body ({"message": {"data": BASE64, "messageId": ...}}) on
            stdin and applies it once by messageId: a purchased or canceled one-time product
            goes through the pipeline for the player named by obfuscatedExternalAccountId (set
            it to the player ID at purchase); a voided purchase becomes a refund; a test
            notification is logged. The database must exist.

            options:
            \(PlayStoreCommands.apiHelp)

            exit codes: 0 processed (or already processed), 3 rejected, 1 infrastructure error,
              64 usage, 65 invalid input or catalog, 66 database or catalog missing
            """,
        valueOptions: PlayStoreCommands.apiOptions.union(["db", "catalog"]),
        run: { arguments, io in await runRTDN(arguments, io: io) })

    static let voidedSync = Command(
        words: ["playstore", "voided-sync"],
        summary: "apply Google Play's voided purchases since the saved watermark",
        help: """
            usage: ledger playstore voided-sync --db FILE --catalog FILE --package NAME
                     (--service-account FILE [--api-base URL] | --purchases FILE)

            Pages through voidedpurchases.list from the saved watermark (less an overlap
            window, at most 30 days back), applies each voided purchase once as a refund, and
            saves the new watermark. Running it again applies nothing twice. The database must exist.

            options:
            \(PlayStoreCommands.apiHelp)

            exit codes: 0 done, 1 the API or the ledger failed, 64 usage, 65 invalid catalog,
              66 database or catalog missing
            """,
        valueOptions: PlayStoreCommands.apiOptions.union(["db", "catalog"]),
        run: { arguments, io in await runVoidedSync(arguments, io: io) })

    /// The options both ledger commands take: the API, the package and the environment.
    static func ledgerOptions(
        _ arguments: Arguments
    ) throws(Arguments.UsageError) -> (any PlayPurchasesAPI, String, StoreEnvironment) {
        try arguments.expectPositionals(max: 0)
        _ = (try arguments.required("db"), try arguments.required("catalog"))
        return (
            try PlayStoreCommands.api(arguments), try arguments.required("package"),
            try PlayStoreCommands.environment(arguments)
        )
    }

    struct RTDNOutput: Encodable {
        var outcome: String
        var detail: String?
        var disposition: String?
        var effect: [GrantLine]?
    }

    static func runRTDN(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (api, package, environment): (any PlayPurchasesAPI, String, StoreEnvironment)
        do throws(Arguments.UsageError) {
            (api, package, environment) = try ledgerOptions(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore rtdn")
        }
        guard let body = io.readInput(bodyByteCountMax) else {
            io.printError("ledger playstore rtdn: stdin is larger than \(bodyByteCountMax) bytes")
            return .dataError
        }
        do throws(LedgerError) {
            let ledger = try PlayStoreCommands.ledger(arguments, api: api, package: package, environment: environment)
            let processor = PlayNotificationProcessor(
                api: api, packageName: package, ledger: ledger, playerResolver: { account in account })
            switch try await processor.process(body) {
            case .rejected(let reason):
                io.printJSON(RTDNOutput(outcome: "rejected", detail: reason))
                return .rejected
            case .alreadyProcessed(let record):
                io.printJSON(RTDNOutput(outcome: "alreadyProcessed", detail: record.outcome))
            case .fulfillment(let outcome):
                io.printJSON(RTDNOutput(outcome: outcome.name, detail: outcome.rejection?.description))
                return outcome.rejection == nil ? .ok : .rejected
            case .unresolved(let record):
                io.printJSON(RTDNOutput(outcome: "unresolved", detail: record.outcome))
            case .revocation(let revocation):
                io.printJSON(
                    RTDNOutput(
                        outcome: "revocation", detail: revocation.rejection?.description,
                        disposition: revocation.record?.disposition.rawValue, effect: revocation.record?.effect))
                return revocation.record == nil ? .rejected : .ok
            case .logged(let record):
                io.printJSON(RTDNOutput(outcome: "logged", detail: record.type))
            }
            return .ok
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore rtdn")
        }
    }

    struct SyncOutput: Encodable {
        var pagesRead: Int
        var voidedSeen: Int
        var recorded: Int
        var alreadyRecorded: Int
        var truncated: Bool
        var watermarkMilliseconds: Int64?
    }

    static func runVoidedSync(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (api, package, environment): (any PlayPurchasesAPI, String, StoreEnvironment)
        do throws(Arguments.UsageError) {
            (api, package, environment) = try ledgerOptions(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore voided-sync")
        }
        do throws(LedgerError) {
            let ledger = try PlayStoreCommands.ledger(arguments, api: api, package: package, environment: environment)
            let report = try await VoidedPurchasesSync(api: api, packageName: package, ledger: ledger).run()
            io.printJSON(
                SyncOutput(
                    pagesRead: report.pagesRead, voidedSeen: report.voidedSeen, recorded: report.recorded,
                    alreadyRecorded: report.alreadyRecorded, truncated: report.truncated,
                    watermarkMilliseconds: report.watermarkSaved))
            return .ok
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore voided-sync")
        }
    }
}
