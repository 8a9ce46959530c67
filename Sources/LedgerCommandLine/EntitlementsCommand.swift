import FulfillmentLedger

/// `ledger entitlements`: a player's entitlement states and version.
enum EntitlementsCommand {
    static let command = Command(
        words: ["entitlements"],
        summary: "show a player's entitlements with their state and version",
        help: """
            usage: ledger entitlements --db DB --player P [--catalog FILE]

            Prints every catalog entitlement as owned or notOwned, the player's entitlement
            version (it increases with every change), and whether ads may be shown to a
            consenting player. The database must exist. Catalog default: ProductCatalog.json
            in this folder, else the sample catalog built into the tool (said on stderr).

            exit codes: 0 ok, 1 unreadable ledger, 64 usage, 65 invalid catalog,
              66 database or catalog missing
            """,
        valueOptions: ["db", "player", "catalog"],
        run: { arguments, io in
            let database: LedgerDatabase
            let playerID: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                playerID = try arguments.required("player")
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "entitlements")
            }
            let catalogChoice = CatalogChoice.currentFolderOrSample(arguments, io: io, command: "entitlements")
            do throws(LedgerError) {
                let ledger = try await LedgerSetup.ledger(database: database, catalog: try catalogChoice.load(), createIfMissing: false)
                let snapshot = try await ledger.entitlements(playerID)
                io.printJSON(
                    Output(
                        playerID: playerID, version: snapshot.version ?? 0,
                        entitlements: snapshot.statuses.mapValues(\.rawValue),
                        owned: snapshot.owned, adsAllowedWithConsent: try await ledger.adsAllowed(playerID, consent: true)))
                return .ok
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "entitlements", catalogPath: catalogChoice.path)
            }
        })

    struct Output: Encodable {
        var playerID: String
        var version: Int64
        var entitlements: [String: String]
        var owned: [EntitlementRecord]
        var adsAllowedWithConsent: Bool
    }
}
