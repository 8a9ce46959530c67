import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore subscription-status`: a player's subscription chains brought up to date from
/// Apple's Get All Subscription Statuses.
enum AppStoreSubscriptionStatusCommand {
    static let command = Command(
        words: ["appstore", "subscription-status"],
        summary: "bring a player's App Store subscriptions up to date from Get All Subscription Statuses",
        description: """
            For each App Store subscription chain of the player in the ledger, reads Get All
            Subscription Statuses and applies it: the chain's latest transaction is fulfilled
            for the player (a period the ledger missed is granted once, finished on Apple's
            server), then Apple's status (active, expired, billing retry, grace period) and
            renewal information update the chain, unless the ledger holds newer facts. For
            when notifications were missed. Prints, as JSON, one entry per chain: outcome
            (applied, notFound, failed), status, the period's fulfillment and the update.

            exit codes: 0 every chain applied, 3 a chain not found or its period rejected,
              1 Apple unavailable or infrastructure error, 64 usage, 65 invalid catalog,
              66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let database: LedgerDatabase
        let player: String
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            player = try arguments.required(CommonOptions.player)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore subscription-status")
        }
        do throws(LedgerError) {
            return try await AppStoreLedgerCommands.withLedger(
                arguments, database: database, verifier: client.verifier, environment: client.environment,
                createIfMissing: false, serverAPI: client) { ledger throws(LedgerError) in
                let outcomes = try await AppStoreSubscriptionStatusSync(client: client, ledger: ledger).sync(playerID: player)
                let entries = outcomes.sorted { $0.key < $1.key }.map { Entry(chain: $0.key, $0.value) }
                io.printJSON(Output(playerID: player, subscriptions: entries))
                if outcomes.values.contains(where: { if case .failed = $0 { true } else { false } }) { return .failure }
                return entries.allSatisfy { $0.outcome == "applied" && $0.period?.rejection == nil } ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore subscription-status")
        }
    }

    struct Output: Encodable {
        var playerID: String
        var subscriptions: [Entry]
    }

    /// One chain's sync, flat.
    struct Entry: Encodable {
        var chainID: String
        var outcome: String
        var status: Int?
        var period: FulfillmentOutcome?
        var update: String?
        var subscription: SubscriptionRecord?
        var error: String?

        init(chain: TransactionKey, _ outcome: AppStoreSubscriptionStatusSync.Outcome) {
            chainID = chain.transactionID
            switch outcome {
            case .applied(let status, let period, let update):
                self.outcome = "applied"
                self.status = status?.rawValue
                self.period = period
                self.update = update.name
                switch update {
                case .applied(let record), .stale(let record), .unchanged(let record): subscription = record
                case .unknownChain: break
                }
            case .notFound:
                self.outcome = "notFound"
            case .failed(let error):
                self.outcome = "failed"
                self.error = error.description
            }
        }
    }
}
