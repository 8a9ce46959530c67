import Foundation
import FulfillmentLedger

/// `ledger lookup ID`: everything the ledger holds under any store ID of a purchase, and what
/// happened to it, in order, in words: support's first step for "I paid and got nothing".
enum LookupCommand {
    static let command = Command(
        words: ["lookup"],
        summary: "find a purchase by any store ID and tell what happened to it",
        positionals: "ID",
        description: """
            Finds what the ledger holds under ID in every store: a delivery's transaction
            ID, the purchase's key, an App Store originalTransactionId or
            webOrderLineItemId, a Google Play purchase token or order ID (GPA.…). Prints
            the records found (with their finish), subscription chains, submissions that
            granted nothing (rejected or failed, from the attempts journal), refunds, and
            then what happened, oldest first. The database must exist. A pending finish's
            age is measured now against 24 hours (Google Play refunds a purchase not
            acknowledged within 3 days).

            exit codes: 0 found, 1 unreadable ledger, 3 nothing under ID, 64 usage,
              66 database missing
            """,
        options: [LedgerDatabase.option, CommonOptions.json],
        run: { arguments, io in
            let id: String
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 1)
                guard let given = arguments.positionals.first, !given.isEmpty else {
                    throw Arguments.UsageError(message: "ID is required")
                }
                let byteCountMax = LedgerConfiguration.sandbox.transactionIDByteCountMax
                guard given.utf8.count <= byteCountMax else {
                    throw Arguments.UsageError(message: "ID is longer than \(byteCountMax) bytes")
                }
                id = given
                database = try LedgerDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "lookup")
            }
            do throws(LedgerError) {
                return try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                    let report = try await store.lookup(
                        id, now: Date(), finishWarningAgeSeconds: LedgerConfiguration.sandbox.finishWarningAgeSeconds)
                    if arguments.flag(CommonOptions.json) {
                        io.printJSON(report)
                    } else {
                        printText(report, io: io)
                    }
                    if !report.found { io.printError("ledger lookup: nothing in the ledger under \"\(id)\" in any store") }
                    return report.found ? .ok : .rejected
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "lookup")
            }
        })

    /// The report as sections of aligned columns, then the timeline.
    static func printText(_ report: LookupReport, io: CommandIO) {
        io.print("lookup \(report.id): players \(report.playerIDs.isEmpty ? "none" : report.playerIDs.joined(separator: ", "))")
        var records = TextTable(
            title: "purchases", header: ["KEY", "DELIVERY", "ORDER", "PLAYER", "PRODUCT", "QUANTITY", "FULFILLED AT", "STATUS"])
        for record in report.records {
            let pending = report.pendingFinishes.first { $0.key == record.key }
            records.append([
                record.key.description, record.storeTransactionID, record.storeOrderID ?? "-", record.playerID,
                record.productID, String(record.quantity), TextTable.time(record.fulfilledAt),
                PlayerCommands.finishStatus(record, pending: pending),
            ])
        }
        records.print(io)
        var chains = TextTable(title: "subscriptions", header: ["CHAIN", "PLAYER", "PRODUCT", "STATE", "EXPIRES", "PERIODS"])
        for chain in report.subscriptions {
            chains.append([
                chain.chain.description, chain.playerID, chain.productID, chain.state.rawValue,
                TextTable.time(chain.expiresAt), String(chain.periodCount),
            ])
        }
        chains.print(io)
        PlayerCommands.attemptTable(report.attempts, title: "attempts that granted nothing (newest first)").print(io)
        var refunds = TextTable(title: "refunds and revocations", header: ["RECEIVED", "EVENT", "KIND", "DISPOSITION"])
        for revocation in report.revocations {
            refunds.append([
                TextTable.time(revocation.receivedAt), revocation.event.eventID, revocation.event.kind.rawValue,
                revocation.disposition.rawValue,
            ])
        }
        refunds.print(io)
        var steps = TextTable(title: "what happened (oldest first)", header: ["AT", "PLAYER", "WHAT", "DETAIL"])
        for step in report.steps {
            steps.append([TextTable.time(step.at), step.playerID.isEmpty ? "-" : step.playerID, step.kind, step.text])
        }
        steps.print(io)
    }
}
