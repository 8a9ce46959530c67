import Foundation
import FulfillmentLedger
import LedgerHTTP

/// `GET /console/players/ID`: one player's case file (`Ledger.supportReport`): what the
/// player holds, each purchase and whether the store was told to finish it (with "retry
/// finish" on those still pending), each submission that granted nothing and why, refunds,
/// subscriptions with their periods, balances over time, and what happened in order.
struct ConsolePlayerPage {
    let ledger: Ledger

    func answer(_ playerID: String, flash: String?, csrfToken: String) async -> LedgerHTTPResponse {
        let report: PlayerSupportReport
        let balances: BalanceHistory
        do throws(LedgerError) {
            guard try await ledger.isKnownPlayer(playerID) else { return Self.unknown(playerID, csrfToken: csrfToken) }
            report = try await ledger.supportReport(playerID)
            balances = try await ledger.balanceHistory(playerID)
        } catch {
            return ConsoleResponse.failure(error, csrfToken: csrfToken)
        }
        let html = ConsolePages.flashHTML(flash) + Self.html(report, balances: balances, csrfToken: csrfToken)
        return ConsoleResponse.page(200, ("Player \(playerID)", html), csrfToken: csrfToken)
    }

    /// 404: the ledger holds nothing for the ID, which is not the same as a player with nothing.
    static func unknown(_ playerID: String, csrfToken: String) -> LedgerHTTPResponse {
        ConsoleResponse.page(
            404,
            (
                "Unknown player",
                """
                <h1>Unknown player</h1><p id="not-found">The ledger holds nothing for the player ID
                <code>\(ConsoleHTML.escape(playerID))</code>: no purchase, attempt, balance or event. Check the ID
                for a typo, or search by the purchase's transaction or order ID.</p>
                """
            ), csrfToken: csrfToken)
    }

    /// The page's sections.
    static func html(_ report: PlayerSupportReport, balances: BalanceHistory, csrfToken: String) -> String {
        let snapshot = report.snapshot
        var html = "<p class=\"label\">Player</p><h1 id=\"player-id\">\(ConsoleHTML.escape(report.playerID))</h1>"
        html += "<p class=\"summary\">entitlement version \(snapshot.entitlementVersion)</p>"
        html += "<section><h2>Balances</h2>"
        html += amountTable(id: "balances", header: ["Currency", "Balance"], snapshot.balances, empty: "no currency")
        html += amountTable(id: "inventory", header: ["Item", "Count"], snapshot.inventory, empty: "no items")
        html += amountTable(id: "debts", header: ["Currency", "Owed"], snapshot.debts, empty: "no debt")
        html += entitlementTable(snapshot.entitlements) + "</section>"
        html += "<section><h2>Balances over time</h2>" + ConsoleBalanceChart.html(balances) + "</section>"
        html += "<section><h2>Finishes owed to the store</h2>" + pendingTable(report.pendingFinishes, report.playerID, csrfToken) + "</section>"
        html += "<section><h2>Purchases</h2>"
        html += purchaseTable(id: "purchases", snapshot.history, pending: report.pendingFinishes.map(\.pending)) + "</section>"
        html += "<section><h2>Attempts that granted nothing</h2>" + attemptTable(id: "attempts", report.attempts) + "</section>"
        html += "<section><h2>Refunds and reversals</h2>" + refundTable(report.revocations) + "</section>"
        html += "<section><h2>Subscriptions</h2>" + subscriptionTable(report.subscriptions, report.subscriptionPeriods) + "</section>"
        html += "<section><h2>Flags</h2>" + flagTable(snapshot.flags) + "</section>"
        html += "<section><h2>What happened</h2>" + timeline(report.timeline) + "</section>"
        return html
    }

    /// Purchases with their finish status; used by the search page too.
    static func purchaseTable(id: String, _ records: [TransactionRecord], pending: [PendingFinish]) -> String {
        let pendingByKey = Dictionary(pending.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = records.map { record in
            "<tr class=\"purchase\" data-key=\"\(ConsoleHTML.escape(ConsoleFinishRetry.text(record.key)))\">"
                + "<td>\(ConsoleHTML.time(record.fulfilledAt))</td>" + ConsoleHTML.cell(record.key.description)
                + ConsoleHTML.cell(record.playerID) + ConsoleHTML.cell("\(record.productID) (\(record.storeProductID))")
                + ConsoleHTML.cell(String(record.quantity)) + ConsoleHTML.cell(record.storeOrderID ?? "-")
                + ConsoleHTML.cell(record.grants.map(\.description).joined(separator: ", "))
                + ConsoleHTML.cell(finishStatus(record, pendingByKey[record.key]), class: "status") + "</tr>"
        }
        return ConsoleHTML.table(
            id: id, header: ["Granted at", "Purchase", "Player", "Product", "Quantity", "Order ID", "Granted", "Finish"],
            rows: rows, empty: "no purchase granted")
    }

    /// `finished TIME`, or `pending finish` with its failed attempts.
    static func finishStatus(_ record: TransactionRecord, _ pending: PendingFinish?) -> String {
        if let finishedAt = record.finishedAt { return "finished \(finishedAt.formatted(.iso8601))" }
        guard let pending, pending.attemptCount > 0 else { return "pending finish" }
        return "pending finish (\(pending.attemptCount) failed attempt(s), last error: \(pending.lastError ?? "unknown"))"
    }

    /// Journaled attempts; used by the search page too.
    static func attemptTable(id: String, _ attempts: [AttemptRecord]) -> String {
        let rows = attempts.map { attempt in
            "<tr class=\"attempt\"><td>\(ConsoleHTML.time(attempt.at))</td>"
                + ConsoleHTML.cell("\(attempt.store.rawValue)/\(attempt.deliveryID)") + ConsoleHTML.cell(attempt.playerID)
                + ConsoleHTML.cell(attempt.storeProductID) + ConsoleHTML.cell(attempt.entryPoint.rawValue)
                + ConsoleHTML.cell(attempt.outcome.rawValue, class: "outcome") + ConsoleHTML.cell(attempt.code, class: "code")
                + ConsoleHTML.cell(String(attempt.repeatCount)) + ConsoleHTML.cell(attempt.reason, class: "reason") + "</tr>"
        }
        return ConsoleHTML.table(
            id: id, header: ["At", "Delivery", "Player", "Store product", "Via", "Outcome", "Code", "Times", "Reason"],
            rows: rows, empty: "every submission granted")
    }

    /// Pending finishes with age, the store's deadline, and the retry form.
    static func pendingTable(_ pending: [PendingFinishDeadline], _ playerID: String, _ csrfToken: String) -> String {
        let action = ConsoleHTML.escape(ConsoleHTML.playerPath(playerID) + "/retry-finish")
        let rows = pending.map { row in
            let key = ConsoleFinishRetry.text(row.pending.key)
            let deadline = row.deadline.map { "store acts at \($0.formatted(.iso8601))" } ?? "none: the store redelivers it until finished"
            return "<tr class=\"pending-finish\" data-key=\"\(ConsoleHTML.escape(key))\">" + ConsoleHTML.cell(row.pending.key.description)
                + ConsoleHTML.cell("\(row.ageSeconds) s" + (row.overdue ? " (overdue)" : ""), class: "age")
                + ConsoleHTML.cell(deadline, class: "deadline") + ConsoleHTML.cell(String(row.pending.attemptCount))
                + ConsoleHTML.cell(row.pending.lastError ?? "-")
                + "<td><form class=\"retry-finish\" method=\"post\" action=\"\(action)\">"
                + "<input type=\"hidden\" name=\"csrf\" value=\"\(ConsoleHTML.escape(csrfToken))\">"
                + "<input type=\"hidden\" name=\"key\" value=\"\(ConsoleHTML.escape(key))\">"
                + "<button class=\"retry-finish\" type=\"submit\">Retry finish</button></form></td></tr>"
        }
        return ConsoleHTML.table(
            id: "pending-finishes", header: ["Purchase", "Age", "Deadline", "Failed attempts", "Last error", "Action"], rows: rows,
            empty: "nothing owed: every purchase was finished")
    }

    static func amountTable(id: String, header: [String], _ values: [String: Int64], empty: String) -> String {
        let rows = values.sorted { $0.key < $1.key }.map { "<tr>" + ConsoleHTML.cell($0.key) + ConsoleHTML.cell(String($0.value)) + "</tr>" }
        return ConsoleHTML.table(id: id, header: header, rows: rows, empty: empty)
    }

    static func entitlementTable(_ entitlements: [EntitlementRecord]) -> String {
        let rows = entitlements.map {
            "<tr>" + ConsoleHTML.cell($0.entitlementID) + "<td>\(ConsoleHTML.time($0.grantedAt))</td>"
                + ConsoleHTML.cell($0.source.description) + "</tr>"
        }
        return ConsoleHTML.table(id: "entitlements", header: ["Entitlement", "Since", "Paid by"], rows: rows, empty: "no entitlement")
    }

    static func refundTable(_ revocations: [RevocationRecord]) -> String {
        let rows = revocations.map { revocation in
            "<tr class=\"refund\"><td>\(ConsoleHTML.time(revocation.receivedAt))</td>" + ConsoleHTML.cell(revocation.event.eventID)
                + ConsoleHTML.cell(revocation.event.kind.rawValue) + ConsoleHTML.cell(revocation.purchase.description)
                + ConsoleHTML.cell(revocation.disposition.rawValue)
                + ConsoleHTML.cell(revocation.effect.map(\.description).joined(separator: ", "))
                + ConsoleHTML.cell(revocation.debtCreated.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
                + ConsoleHTML.cell(revocation.reversed ? "reversed" : "-") + ConsoleHTML.cell(revocation.event.reason ?? "-") + "</tr>"
        }
        return ConsoleHTML.table(
            id: "refunds", header: ["Received", "Event", "Kind", "Purchase", "Disposition", "Effect", "Debt", "Reversed", "Reason"],
            rows: rows, empty: "no refund or revocation")
    }

    static func subscriptionTable(_ chains: [SubscriptionRecord], _ periods: [SubscriptionPeriodRecord]) -> String {
        let rows = chains.map { chain in
            let chainPeriods = periods.filter { $0.chain == chain.chain }.map {
                "<li>\(ConsoleHTML.escape($0.periodID)): \(ConsoleHTML.time($0.startsAt)) to \(ConsoleHTML.time($0.expiresAt))</li>"
            }
            return "<tr class=\"subscription\">" + ConsoleHTML.cell(chain.chain.description) + ConsoleHTML.cell(chain.productID)
                + ConsoleHTML.cell(chain.state.rawValue) + "<td>\(ConsoleHTML.time(chain.expiresAt))</td>"
                + ConsoleHTML.cell(chain.willAutoRenew.map { $0 ? "on" : "off" } ?? "unknown")
                + "<td><ol class=\"periods\">\(chainPeriods.joined())</ol></td></tr>"
        }
        return ConsoleHTML.table(
            id: "subscriptions", header: ["Chain", "Product", "State", "Expires", "Auto-renew", "Periods (newest first)"], rows: rows,
            empty: "no subscription")
    }

    static func flagTable(_ flags: [PlayerFlag]) -> String {
        let rows = flags.map {
            "<tr><td>\(ConsoleHTML.time($0.at))</td>" + ConsoleHTML.cell($0.flag) + ConsoleHTML.cell($0.transaction?.description ?? "-")
                + ConsoleHTML.cell($0.detail) + "</tr>"
        }
        return ConsoleHTML.table(id: "flags", header: ["At", "Flag", "Purchase", "Detail"], rows: rows, empty: "no flag")
    }

    /// What happened, oldest first, each entry tagged with where it was read from so the page's
    /// script can filter them.
    static func timeline(_ steps: [LookupStep]) -> String {
        guard !steps.isEmpty else { return "<ol id=\"timeline\"></ol><p>Nothing recorded.</p>" }
        var html = "<ol id=\"timeline\">"
        for step in steps {
            html += "<li class=\"timeline-entry\" data-source=\"\(step.source.rawValue)\">\(ConsoleHTML.time(step.at)) "
            html += "<span class=\"kind\">\(ConsoleHTML.escape(step.kind))</span> \(ConsoleHTML.escape(step.text))</li>"
        }
        return html + "</ol>"
    }
}
