import Foundation

extension AppStoreServerAPIClient {
    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`. A 404 is
    /// `.notFound`, a value: the ID is unknown in this environment.
    public func transactionInfo(transactionID: String) async throws(AppStoreServerAPIError) -> AppStoreTransactionLookup {
        let body: Data
        do {
            body = try await perform(
                .getTransactionInfo, method: "GET", path: "/inApps/v1/transactions/" + Self.segment(transactionID))
        } catch {
            if case .rejected(let response) = error, response.httpStatusCode == 404 { return .notFound(response) }
            throw error
        }
        let decoded = try decode(TransactionInfoWire.self, from: body, endpoint: .getTransactionInfo)
        guard let jws = decoded.signedTransactionInfo else {
            throw .invalidResponse("getTransactionInfo: no signedTransactionInfo")
        }
        let signed = try verifiedTransaction(jws)
        guard signed.transaction.transactionId == transactionID else {
            throw .invalidResponse("getTransactionInfo: the signed transaction is not the one asked for")
        }
        return .found(signed)
    }

    /// One page of Get Transaction History v2: `GET /inApps/v2/history/{transactionId}` with the
    /// query's filters and `revision` (nil for the first page).
    public func transactionHistoryPage(
        transactionID: String, revision: String? = nil, query: AppStoreTransactionHistoryQuery = .init()
    ) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        var items = query.items
        if let revision { items.append(("revision", revision)) }
        let body = try await perform(
            .getTransactionHistory, method: "GET", path: "/inApps/v2/history/" + Self.segment(transactionID), query: items)
        return try verifiedPage(body, endpoint: .getTransactionHistory)
    }

    /// Get Transaction History v2, page after page from `revision`, at most `pageCountMax` pages.
    /// The result's `hasMore` says whether it stopped at the limit; its `revision` reads on.
    public func transactionHistory(
        transactionID: String, revision: String? = nil, query: AppStoreTransactionHistoryQuery = .init(),
        pageCountMax: Int = pageCountMaxDefault
    ) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        try await pages(from: revision, pageCountMax: pageCountMax) { revision throws(AppStoreServerAPIError) in
            try await transactionHistoryPage(transactionID: transactionID, revision: revision, query: query)
        }
    }

    /// Send Consumption Information: `PUT /inApps/v2/transactions/consumption/{transactionId}`
    /// with the V2 `ConsumptionRequest`; Apple answers 202.
    public func sendConsumptionInformation(
        transactionID: String, _ request: AppStoreConsumptionRequest
    ) async throws(AppStoreServerAPIError) {
        let body: Data
        do {
            body = try JSONEncoder().encode(request)
        } catch {
            throw .configuration("sendConsumptionInformation: cannot encode the request: \(error)")
        }
        _ = try await perform(
            .sendConsumptionInformation, method: "PUT",
            path: "/inApps/v2/transactions/consumption/" + Self.segment(transactionID), body: body)
    }

    /// Finish Transaction: `POST /inApps/v1/transactions/{transactionId}/finish` (API 1.20+),
    /// telling Apple the server delivered the content, as StoreKit's `finish()` does.
    public func finishTransaction(transactionID: String) async throws(AppStoreServerAPIError) {
        _ = try await perform(
            .finishTransaction, method: "POST", path: "/inApps/v1/transactions/" + Self.segment(transactionID) + "/finish")
    }

    /// Follows `revision` through at most `pageCountMax` pages (at least one), gathering them.
    func pages(
        from revision: String?, pageCountMax: Int,
        read: (String?) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage
    ) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        var gathered = AppStoreTransactionPage(transactions: [], revision: revision, hasMore: true)
        for _ in 0..<max(1, pageCountMax) {
            let page = try await read(gathered.revision)
            gathered.transactions += page.transactions
            gathered.revision = page.revision ?? gathered.revision
            gathered.hasMore = page.hasMore
            // A page that claims more but gives no new revision would repeat itself forever.
            guard page.hasMore, page.revision != nil else { break }
        }
        return gathered
    }

    /// A history or refund page with every `signedTransactions` JWS verified.
    func verifiedPage(_ body: Data, endpoint: AppStoreAPIEndpoint) throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        let decoded = try decode(TransactionsWire.self, from: body, endpoint: endpoint)
        var transactions: [AppStoreSignedTransaction] = []
        for jws in decoded.signedTransactions ?? [] { transactions.append(try verifiedTransaction(jws)) }
        return AppStoreTransactionPage(
            transactions: transactions, revision: decoded.revision, hasMore: decoded.hasMore ?? false)
    }
}

/// `TransactionInfoResponse`.
private struct TransactionInfoWire: Decodable {
    var signedTransactionInfo: String?
}

/// `HistoryResponse` and `RefundHistoryResponse`: the fields the client reads.
private struct TransactionsWire: Decodable {
    var signedTransactions: [String]?
    var revision: String?
    var hasMore: Bool?
}
