import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// `ledger revoke`: one refund, revoke or reversal event from stdin.
enum RevokeCommand {
    static let command = Command(
        words: ["revoke"],
        summary: "apply one refund, partial refund, revoke or reversal read as JSON from stdin",
        description: """
            Reads one revocation event as a JSON object on stdin, applies it exactly once
            (idempotent by eventID) and prints the outcome as one JSON object. An unknown
            field, a value of the wrong type and invalid JSON are refused (exit 65) with their
            line and column.

            input fields: eventID, store (required, e.g. "test"), transactionID, kind ("fullRefund" |
              "partialRefund" | "revoke" | "refundReversed"), eventDate (required, RFC 3339,
              1970 to 2199: the store's date, which orders events), originalTransactionID
              (optional: the purchase's original ID, for a refund of a restored delivery),
              quantity and quantityIsCumulative (partialRefund only: units refunded by this
              event, or in all when quantityIsCumulative is true), reason (optional)
            output fields: outcome ("recorded" | "alreadyRecorded" | "rejected"); when
              recorded: record {event, purchase, disposition ("applied" | "awaitingPurchase" |
              "stale" | "noChange"), effect (negative: taken back, positive: given back),
              debtCreated, absorbedChange, receivedAt, reversed}; when rejected: reason,
              reasonCode, message

            exit codes: 0 recorded or already recorded, 3 rejected, 1 infrastructure error,
              64 usage, 65 invalid input or catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required] + StorePortOptions.options,
        run: { arguments, io in
            let database: LedgerDatabase
            let catalogPath: String
            let ports: StorePortOptions
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                catalogPath = try arguments.required(CommonOptions.catalog)
                ports = try StorePortOptions(arguments)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "revoke")
            }
            guard let data = io.readInput(FulfillCommand.inputByteCountMax) else {
                io.printError("ledger revoke: stdin is larger than \(FulfillCommand.inputByteCountMax) bytes")
                return .dataError
            }
            let event: RevocationEvent
            do throws(StrictJSONError) {
                event = try StrictJSON.decode(RevocationEvent.self, from: data)
            } catch {
                return LedgerCommandLine.inputError(error, expected: "a revocation event", io: io, command: "revoke")
            }
            do throws(LedgerError) {
                return try await LedgerSetup.withLedger(
                    database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: ports,
                    createIfMissing: false) { ledger throws(LedgerError) in
                    let outcome = try await ledger.applyRevocation(event)
                    io.printJSON(outcome)
                    return outcome.record == nil ? .rejected : .ok
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "revoke", catalogPath: catalogPath)
            }
        })
}
