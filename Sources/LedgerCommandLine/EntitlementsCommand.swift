import FulfillmentLedger

/// `ledger entitlements`: a player's entitlement states and version.
enum EntitlementsCommand {
    static let command = Command(
        words: ["entitlements"],
        summary: "show a player's entitlements with their state and version",
        description: """
            Prints every catalog entitlement as owned or notOwned (an owned one with the time
            and the purchase that pays for it), the player's entitlement version (it increases
            with every change), and whether ads may be shown to a consenting player. A player
            ID the ledger holds nothing for is refused as unknown. The database must exist.
            Catalog default: ProductCatalog.json in this folder, else the sample catalog built
            into the tool (said on stderr).

            exit codes: 0 ok, 1 unreadable ledger, 3 unknown player, 64 usage,
              65 invalid catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.player.required, CommonOptions.catalog.defaulting("ProductCatalog.json, else the built-in sample"), CommonOptions.json],
        run: { arguments, io in
            let database: LedgerDatabase
            let playerID: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                playerID = try arguments.required(CommonOptions.player)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "entitlements")
            }
            let json = arguments.flag(CommonOptions.json)
            let catalogChoice = CatalogChoice.currentFolderOrSample(arguments, io: io, command: "entitlements")
            do throws(LedgerError) {
                return try await LedgerSetup.withLedger(database: database, catalog: try catalogChoice.load(), createIfMissing: false) { ledger throws(LedgerError) in
                    let snapshot = try await ledger.entitlements(playerID)
                    guard try await UnknownPlayer.isKnown(playerID, in: ledger.store) else {
                        return UnknownPlayer.report(playerID, io: io, command: "entitlements", json: json)
                    }
                    let output = Output(
                        playerID: playerID, version: snapshot.version ?? 0, entitlements: snapshot.statuses.mapValues(\.rawValue),
                        owned: snapshot.owned, adsAllowedWithConsent: try await ledger.adsAllowed(playerID, consent: true))
                    if json { io.printJSON(output) } else { printText(output, io: io) }
                    return .ok
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "entitlements", catalogPath: catalogChoice.path)
            }
        })

    /// Prints the entitlements as a table, owned or not, by ID.
    static func printText(_ output: Output, io: CommandIO) {
        io.print("player \(output.playerID) (entitlement version \(output.version))")
        io.print("ads allowed with consent: \(output.adsAllowedWithConsent ? "yes" : "no")")
        let owned = Dictionary(output.owned.map { ($0.entitlementID, $0) }, uniquingKeysWith: { first, _ in first })
        var table = TextTable(title: "entitlements", header: ["ENTITLEMENT", "STATE", "SINCE", "PAID BY"])
        for (id, state) in output.entitlements.sorted(by: { $0.key < $1.key }) {
            table.append([id, state, owned[id].map { TextTable.time($0.grantedAt) } ?? "", owned[id]?.source.description ?? ""])
        }
        table.print(io)
    }

    struct Output: Encodable {
        var playerID: String
        var version: Int64
        var entitlements: [String: String]
        var owned: [EntitlementRecord]
        var adsAllowedWithConsent: Bool
    }
}
