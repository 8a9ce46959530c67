import Foundation

extension AppStoreServerAPIClient {
    /// One page of Get Refund History: `GET /inApps/v2/refund/lookup/{transactionId}` with
    /// `revision` (nil for the first page).
    public func refundHistoryPage(
        transactionID: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        let body = try await perform(
            .getRefundHistory, method: "GET", path: "/inApps/v2/refund/lookup/" + Self.segment(transactionID),
            query: revision.map { [("revision", $0)] } ?? [])
        return try verifiedPage(body, endpoint: .getRefundHistory)
    }

    /// Get Refund History, page after page from `revision`, at most `pageCountMax` pages.
    public func refundHistory(
        transactionID: String, revision: String? = nil, pageCountMax: Int = pageCountMaxDefault
    ) async throws(AppStoreServerAPIError) -> AppStoreTransactionPage {
        try await pages(from: revision, pageCountMax: pageCountMax) { revision throws(AppStoreServerAPIError) in
            try await refundHistoryPage(transactionID: transactionID, revision: revision)
        }
    }

    /// One page of Get Notification History: `POST /inApps/v1/notifications/history` with
    /// `paginationToken` (nil for the first page). Each `signedPayload` is verified.
    ///
    /// - Throws: `configuration` before sending when `startDate` does not precede `endDate` or
    ///   lies more than `AppStoreNotificationHistoryRequest.retentionDays` back, which Apple refuses.
    public func notificationHistoryPage(
        _ request: AppStoreNotificationHistoryRequest, paginationToken: String? = nil
    ) async throws(AppStoreServerAPIError) -> AppStoreNotificationHistoryPage {
        let page = try await notificationHistoryEntries(request, paginationToken: paginationToken)
        var items: [AppStoreNotificationHistoryPage.Item] = []
        for entry in page.entries {
            switch verifier.verifyNotification(entry.signedPayload) {
            case .success(let notification):
                let item = AppStoreNotificationHistoryPage.Item(
                    signedPayload: entry.signedPayload, notification: notification, sendAttempts: entry.sendAttempts)
                items.append(item)
            case .failure(let error): throw .verification(error)
            }
        }
        return AppStoreNotificationHistoryPage(
            notifications: items, paginationToken: page.paginationToken, hasMore: page.hasMore)
    }

    /// One page of Get Notification History with each `signedPayload` as Apple sent it, not yet
    /// verified: for a caller that verifies each notification itself and counts a failure
    /// instead of losing the page to it (`AppStoreNotificationHistorySweep`).
    package func notificationHistoryEntries(
        _ request: AppStoreNotificationHistoryRequest, paginationToken: String?
    ) async throws(AppStoreServerAPIError) -> AppStoreNotificationHistoryPage.Unverified {
        try checkRange(request)
        let body: Data
        do {
            body = try JSONEncoder().encode(request)
        } catch {
            throw .configuration("getNotificationHistory: cannot encode the request: \(error)")
        }
        let answer = try await perform(
            .getNotificationHistory, method: "POST", path: "/inApps/v1/notifications/history",
            query: paginationToken.map { [("paginationToken", $0)] } ?? [], body: body)
        let decoded = try decode(NotificationHistoryWire.self, from: answer, endpoint: .getNotificationHistory)
        var entries: [AppStoreNotificationHistoryPage.Unverified.Entry] = []
        for entry in decoded.notificationHistory ?? [] {
            guard let signedPayload = entry.signedPayload else {
                throw .invalidResponse("getNotificationHistory: an entry has no signedPayload")
            }
            let attempts = (entry.sendAttempts ?? []).map {
                AppStoreNotificationHistoryPage.SendAttempt(
                    attemptDate: $0.attemptDate.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
                    sendAttemptResult: $0.sendAttemptResult)
            }
            entries.append(.init(signedPayload: signedPayload, sendAttempts: attempts))
        }
        return .init(entries: entries, paginationToken: decoded.paginationToken, hasMore: decoded.hasMore ?? false)
    }

    /// Get Notification History, page after page from `paginationToken`, at most `pageCountMax` pages.
    public func notificationHistory(
        _ request: AppStoreNotificationHistoryRequest, paginationToken: String? = nil,
        pageCountMax: Int = pageCountMaxDefault
    ) async throws(AppStoreServerAPIError) -> AppStoreNotificationHistoryPage {
        var gathered = AppStoreNotificationHistoryPage(notifications: [], paginationToken: paginationToken, hasMore: true)
        for _ in 0..<max(1, pageCountMax) {
            let page = try await notificationHistoryPage(request, paginationToken: gathered.paginationToken)
            gathered.notifications += page.notifications
            gathered.paginationToken = page.paginationToken
            gathered.hasMore = page.hasMore
            guard page.hasMore, page.paginationToken != nil else { break }
        }
        return gathered
    }

    /// Refuses a range Apple would refuse, before spending a request on it.
    private func checkRange(_ request: AppStoreNotificationHistoryRequest) throws(AppStoreServerAPIError) {
        guard request.startDate < request.endDate else {
            throw .configuration("getNotificationHistory: startDate must precede endDate")
        }
        let oldest = clock.now().addingTimeInterval(-TimeInterval(AppStoreNotificationHistoryRequest.retentionDays * 86_400))
        guard request.startDate >= oldest else {
            throw .configuration(
                "getNotificationHistory: startDate is more than \(AppStoreNotificationHistoryRequest.retentionDays) days back")
        }
    }
}

/// `NotificationHistoryResponse`: the fields the client reads.
private struct NotificationHistoryWire: Decodable {
    struct Entry: Decodable {
        struct Attempt: Decodable {
            var attemptDate: Int64?
            var sendAttemptResult: String?
        }

        var signedPayload: String?
        var sendAttempts: [Attempt]?
    }

    var notificationHistory: [Entry]?
    var paginationToken: String?
    var hasMore: Bool?
}
