import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// `ledger fulfill`: one test-store transaction from stdin through the pipeline.
enum FulfillCommand {
    /// Largest stdin document accepted.
    static let inputByteCountMax = 64 * 1024

    /// `--fault P=A`.
    static let fault = CommandOption(
        "fault", "P=A", kind: .repeatable,
        help: "fail (A=error) or SIGKILL the process (A=crash) at fault point P: "
            + FaultPoint.allCases.map(\.rawValue).joined(separator: ", "))

    static let command = Command(
        words: ["fulfill"],
        summary: "fulfill one test-store transaction read as JSON from stdin",
        description: """
            Reads one transaction as a JSON object on stdin and prints the outcome as one
            JSON object on stdout. An unknown field, a value of the wrong type and invalid
            JSON are refused (exit 65) with their line and column.

            input fields: store ("test"), transactionID, productID (the store's product ID),
              playerID, quantity (1), state ("purchased"|"pending"|"cancelled"),
              verified (true; stands in for the signature), environment ("sandbox"),
              purchaseDate (RFC 3339, default now), revocationDate (RFC 3339, optional),
              accountBinding (optional: the account the store binds it to, like the App
              Store's appAccountToken), originalTransactionID (optional: the original
              purchase's ID when this is a restored or second-device delivery of it)
            output fields: outcome ("granted"|"alreadyFulfilled"|"rejected"),
              transactionID, productID, playerID; when granted or alreadyFulfilled:
              granted (what this call granted), finished, finishError,
              finishInProgressElsewhere, record (the ledger record); when rejected:
              reason, reasonCode, message

            exit codes: 0 granted or alreadyFulfilled, 3 rejected, 1 infrastructure error,
              64 usage, 65 invalid input, 66 catalog missing
            """,
        options: [LedgerDatabase.option.helping("the ledger, created if missing: a SQLite file or a postgresql:// URL"), CommonOptions.catalog.required, fault],
        run: { arguments, io in await run(arguments, io: io) })

    /// The outcome in its shared JSON form (Docs/Integration.md, "JSON shapes") with the
    /// submission's transaction, product and player beside it.
    struct Output: Encodable {
        var outcome: FulfillmentOutcome
        var transactionID: String
        var productID: String
        var playerID: String

        func encode(to encoder: any Encoder) throws {
            try outcome.encode(to: encoder)
            var container = encoder.container(keyedBy: LedgerJSONKey.self)
            try container.encode(transactionID, forKey: "transactionID")
            try container.encode(productID, forKey: "productID")
            try container.encode(playerID, forKey: "playerID")
        }
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let catalogPath: String
        let faults = CommandLineFaultInjector()
        do {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            catalogPath = try arguments.required(CommonOptions.catalog)
            for spec in arguments.values(fault) { try arm(spec, on: faults) }
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "fulfill")
        }
        guard let data = io.readInput(inputByteCountMax) else {
            io.printError("ledger fulfill: stdin is larger than \(inputByteCountMax) bytes")
            return .dataError
        }
        let document: TestStoreTransaction
        do throws(StrictJSONError) {
            document = try StrictJSON.decode(TestStoreTransaction.self, from: data)
        } catch {
            return LedgerCommandLine.inputError(error, expected: "a transaction object", io: io, command: "fulfill")
        }
        do {
            return try await LedgerSetup.withLedger(database: database, catalogPath: catalogPath, faults: faults) { ledger throws(LedgerError) in
                let outcome = try await ledger.fulfill(document.submission(), via: .operator)
                io.printJSON(output(outcome, document: document))
                return outcome.rejection == nil ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "fulfill", catalogPath: catalogPath)
        }
    }

    static func arm(_ spec: String, on faults: CommandLineFaultInjector) throws(Arguments.UsageError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let point = FaultPoint(rawValue: parts[0]),
            let action = CommandLineFaultInjector.Action(rawValue: parts[1])
        else {
            throw Arguments.UsageError(
                message: "--fault \(spec): expected POINT=error|crash with POINT one of "
                    + FaultPoint.allCases.map(\.rawValue).joined(separator: ", "))
        }
        faults.arm(point, action)
    }

    static func output(_ outcome: FulfillmentOutcome, document: TestStoreTransaction) -> Output {
        output(outcome, transactionID: document.transactionID, productID: document.storeProductID, playerID: document.playerID)
    }

    static func output(_ outcome: FulfillmentOutcome, transactionID: String, productID: String, playerID: String) -> Output {
        Output(outcome: outcome, transactionID: transactionID, productID: productID, playerID: playerID)
    }

}
