import Foundation
import FulfillmentLedger

/// `ledger subscriptions`: a player's subscription chains, read at a time.
enum SubscriptionsCommand {
    /// `--at TIME`.
    static let at = CommandOption("at", "TIME", default: "now", help: "the time to read the state at (RFC 3339 with an offset)")

    static let command = Command(
        words: ["subscriptions"],
        summary: "show a player's subscriptions: state, expiry, periods granted and entitlement",
        description: """
            Prints each auto-renewable subscription chain of the player (App Store
            originalTransactionId, Play purchase token): the state the store last reported,
            the state and entitlement at TIME (default: now), expiresAt, the grace period's
            end, the paid periods granted, and the entitlements the latest period pays for.
            TIME is RFC 3339 with an offset, such as 2026-12-01T12:00:00Z. A period read after it ends
            reads as expired, with no write. A player ID the ledger holds nothing for is
            refused as unknown. The database must exist. Catalog default: ProductCatalog.json
            in this folder, else the sample catalog built into the tool.

            exit codes: 0 ok, 1 unreadable ledger, 3 unknown player, 64 usage,
              65 invalid catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.player.required, at, CommonOptions.catalog.defaulting("ProductCatalog.json, else the built-in sample"), CommonOptions.json],
        run: { arguments, io in
            let database: LedgerDatabase
            let playerID: String
            var readAt: Date?
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                playerID = try arguments.required(CommonOptions.player)
                if let text = arguments.value(at) {
                    guard let date = LedgerJSON.parseDate(text), date.isInLedgerRange else {
                        throw Arguments.UsageError(message: "--at needs an RFC 3339 time, such as 2026-12-01T12:00:00Z")
                    }
                    readAt = date
                }
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "subscriptions")
            }
            let json = arguments.flag(CommonOptions.json)
            let catalogChoice = CatalogChoice.currentFolderOrSample(arguments, io: io, command: "subscriptions")
            do throws(LedgerError) {
                return try await LedgerSetup.withLedger(
                    database: database, catalog: try catalogChoice.load(), createIfMissing: false) { ledger throws(LedgerError) in
                    let at = readAt ?? ledger.clock.now()
                    let readings = try await ledger.subscriptions(playerID, at: at)
                    guard try await UnknownPlayer.isKnown(playerID, in: ledger.store) else {
                        return UnknownPlayer.report(playerID, io: io, command: "subscriptions", json: json)
                    }
                    let output = Output(playerID: playerID, readAt: at, subscriptions: readings.map(Entry.init))
                    if json { io.printJSON(output) } else { printText(output, io: io) }
                    return .ok
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "subscriptions", catalogPath: catalogChoice.path)
            }
        })

    /// Prints one row per chain: its state at the read time (and the stored one when they
    /// differ), expiry, grace period, renewal, periods granted and entitlements.
    static func printText(_ output: Output, io: CommandIO) {
        io.print("player \(output.playerID), read at \(TextTable.time(output.readAt))")
        var table = TextTable(
            title: "subscriptions",
            header: ["CHAIN", "PRODUCT", "STATE", "ENTITLED", "EXPIRES AT", "GRACE UNTIL", "AUTO-RENEW", "PERIODS", "ENTITLEMENTS"])
        for entry in output.subscriptions {
            let state = entry.state == entry.storedState ? entry.state : "\(entry.state) (stored: \(entry.storedState))"
            let renews = entry.willAutoRenew.map { $0 ? "yes" : "no" } ?? "-"
            table.append([
                "\(entry.store)/\(entry.chainID)", entry.productID, state, entry.entitled ? "yes" : "no",
                TextTable.time(entry.expiresAt), entry.gracePeriodExpiresAt.map(TextTable.time) ?? "-", renews,
                String(entry.periodsGranted), entry.entitlements.isEmpty ? "-" : entry.entitlements.joined(separator: ","),
            ])
        }
        table.print(io)
    }

    struct Output: Encodable {
        var playerID: String
        var readAt: Date
        var subscriptions: [Entry]
    }

    /// One chain, flat, as an operator reads it.
    struct Entry: Encodable {
        var store: String
        var chainID: String
        var productID: String
        var storeProductID: String
        var subscriptionGroup: String
        var state: String
        var storedState: String
        var entitled: Bool
        var expiresAt: Date
        var gracePeriodExpiresAt: Date?
        var willAutoRenew: Bool?
        var entitlements: [String]
        var periodsGranted: Int
        var periods: [SubscriptionPeriodRecord]

        init(_ reading: SubscriptionReading) {
            let chain = reading.subscription
            store = chain.chain.store.rawValue
            chainID = chain.chain.transactionID
            productID = chain.productID
            storeProductID = chain.storeProductID
            subscriptionGroup = chain.subscriptionGroup
            state = reading.state.rawValue
            storedState = chain.state.rawValue
            entitled = reading.isEntitled
            expiresAt = chain.expiresAt
            gracePeriodExpiresAt = chain.gracePeriodExpiresAt
            willAutoRenew = chain.willAutoRenew
            entitlements = chain.entitlementIDs
            periodsGranted = chain.periodCount
            periods = reading.periods
        }
    }
}
