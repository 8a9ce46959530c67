import Foundation
import FulfillmentLedger
import SteamAdapter

/// `ledger steam start | authorize | submit | sync`: a Steam order in Steam's order (InitTxn,
/// the player's answer and FinalizeTxn, then the grant), an order as Steam holds it now, and the
/// report sync that recovers and takes back.
enum SteamCommands {
    /// The note every Steam command's help ends its prose with.
    static let playerNote = "The player of a Steam order is its buyer's Steam ID, in decimal (Docs/Steam.md)."

    static let exitCodes = """
        exit codes: 0 done (every item granted or already fulfilled), 3 refused by Steam,
          rejected (pending included: Steam has not finalised the order) or no such player,
          1 infrastructure error (Steam or the database unreachable), 64 usage, 65 invalid
          input or catalog, 66 database or catalog missing
        """

    /// The options every Steam command takes.
    static let options = [
        LedgerDatabase.option, CommonOptions.catalog.required,
        StorePortOptions.environment.helping("sandbox (ISteamMicroTxnSandbox) or production (ISteamMicroTxn)"),
        SteamOptions.apiKeyEnv.required, SteamOptions.appID.required, SteamOptions.apiBase,
    ]
    /// `--order-id N`.
    static let orderID = CommandOption("order-id", "N", required: true, help: "the game's order ID")
    /// `--declined`.
    static let declined = CommandOption.flag("declined", help: "the player did not authorise the order")

    static let start = Command(
        words: ["steam", "start"],
        summary: "start a Steam order (InitTxn) read as JSON from stdin",
        description: """
            Reads one Steam order on stdin: {"orderID": "42", "steamID": "7656…",
            "language": "en", "currency": "USD", "userSession"?: "client" | "web",
            "ipAddress"?, "lines": [{"itemID": 1001, "quantity": 1, "amount": 99,
            "description": "…", "category"?}]} (IDs as decimal strings; amounts in
            hundredths, a line's total). Every item must map to a catalog product
            (storeProductIDs.steam). Sends InitTxn once, records each item as a pending
            attempt, and prints the outcome as JSON (started, with Steam's transaction ID and
            for a web session the steamURL; or refused, with Steam's error code).

            \(playerNote)

            \(exitCodes)
            """,
        options: options,
        run: { arguments, io in await runStart(arguments, io: io) })

    static let authorize = Command(
        words: ["steam", "authorize"],
        summary: "report the player's answer: FinalizeTxn, then the grant",
        description: """
            What the game client reports from MicroTxnAuthorizationResponse_t. Authorised (the
            default), FinalizeTxn charges the order, then each item is granted once, after
            QueryTxn confirms Steam holds it Succeeded. --declined records the items as Steam
            holds them and grants nothing. Prints the outcome as JSON.

            \(playerNote)

            \(exitCodes)
            """,
        options: options + [orderID, declined],
        run: { arguments, io in await runOrder(arguments, io: io, command: "steam authorize") })

    static let submit = Command(
        words: ["steam", "submit"],
        summary: "submit a Steam order's items as Steam holds the order now",
        description: """
            Reads the order with QueryTxn and submits each item: granted once if Steam charged
            it, else recorded pending (not finalised) or cancelled (declined). For an operator
            answering "I paid and got nothing". Prints the outcome as JSON.

            \(playerNote)

            \(exitCodes)
            """,
        options: options + [orderID],
        run: { arguments, io in await runOrder(arguments, io: io, command: "steam submit") })

    static let sync = Command(
        words: ["steam", "sync"],
        summary: "read Steam's GetReport: grant what Steam charged, take back refunds",
        description: """
            Reads GetReport (GAMESALES) from the saved watermark (less a day; 30 days on the
            first run): grants each item Steam charged that the ledger does not hold (a crash
            between FinalizeTxn and the grant), and takes back refunds, partial refunds,
            chargebacks and fraud refunds once each. Run it when the server starts and then
            every few minutes. Prints the report as JSON.

            \(playerNote)

            exit codes: 0 ran (the report says what it did), 3 an item or a take-back was
              rejected, 1 infrastructure error (the watermark did not move), 64 usage, 65
              invalid catalog, 66 database or catalog missing
            """,
        options: options,
        run: { arguments, io in await runSync(arguments, io: io) })

    static func runStart(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let setup: Setup
        do throws(Arguments.UsageError) {
            setup = try Setup(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "steam start")
        }
        guard let data = io.readInput(FulfillCommand.inputByteCountMax) else {
            io.printError("ledger steam start: stdin is larger than \(FulfillCommand.inputByteCountMax) bytes")
            return .dataError
        }
        let request: SteamOrderRequest
        do throws(StrictJSONError) {
            request = try StrictJSON.decode(SteamOrderRequest.self, from: data)
        } catch {
            return LedgerCommandLine.inputError(error, expected: "a Steam order", io: io, command: "steam start")
        }
        do throws(LedgerError) {
            return try await setup.withProcessor { processor throws(LedgerError) in
                let outcome = try await processor.start(request)
                io.printJSON(outcome)
                return exitCode(outcome)
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "steam start", catalogPath: setup.catalogPath)
        }
    }

    static func runOrder(_ arguments: Arguments, io: CommandIO, command: String) async -> ExitCode {
        let setup: Setup
        let orderID: UInt64
        do throws(Arguments.UsageError) {
            setup = try Setup(arguments, io: io)
            let text = try arguments.required(Self.orderID)
            guard let value = UInt64(text), value != 0, String(value) == text else {
                throw Arguments.UsageError(message: "--order-id \(text): expected a decimal 64-bit order ID other than 0")
            }
            orderID = value
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: command)
        }
        do throws(LedgerError) {
            return try await setup.withProcessor { processor throws(LedgerError) in
                let outcome =
                    command == "steam submit"
                    ? try await processor.submit(orderID: orderID)
                    : try await processor.authorize(orderID: orderID, authorized: !arguments.flag(declined))
                io.printJSON(outcome)
                return exitCode(outcome)
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: command, catalogPath: setup.catalogPath)
        }
    }

    static func runSync(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let setup: Setup
        do throws(Arguments.UsageError) {
            setup = try Setup(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "steam sync")
        }
        do throws(LedgerError) {
            return try await setup.withProcessor { processor throws(LedgerError) in
                let report = try await SteamReportSync(processor: processor).run()
                io.printJSON(report)
                return report.rejected.isEmpty && report.revocationsRejected.isEmpty ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "steam sync", catalogPath: setup.catalogPath)
        }
    }

    /// The exit code of an outcome: 0 only when every item is granted or already fulfilled
    /// (or the order was started).
    static func exitCode(_ outcome: SteamOrderOutcome) -> ExitCode {
        switch outcome {
        case .started: .ok
        case .refused, .unassigned: .rejected
        case .submitted(_, _, let outcomes): outcomes.allSatisfy { $0.rejection == nil } ? .ok : .rejected
        }
    }

    /// What every Steam command reads from its flags before anything opens.
    struct Setup {
        var database: LedgerDatabase
        var catalogPath: String
        var ports: StorePortOptions
        var steam: SteamOptions

        init(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            catalogPath = try arguments.required(CommonOptions.catalog)
            let environment = try PlayStoreCommands.environment(arguments)
            guard let steam = try SteamOptions.parse(arguments, io: io, environment: environment) else {
                throw Arguments.UsageError(message: "--steam-api-key-env and --steam-app-id are required")
            }
            self.steam = steam
            ports = try StorePortOptions(arguments, steam: steam.api)
        }

        /// Runs `body` with the ledger (which must exist) and its Steam order processor, then
        /// closes the ledger's store.
        func withProcessor<T>(_ body: (SteamOrderProcessor) async throws(LedgerError) -> T) async throws(LedgerError) -> T {
            try await LedgerSetup.withLedger(
                database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: ports, createIfMissing: false
            ) { ledger throws(LedgerError) in
                try await body(SteamOrderProcessor(api: steam.api, ledger: ledger))
            }
        }
    }
}
