import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// A ledger file, a purchases file and a push signer whose key set the `rtdn` command reads
/// from `--jwks`, for driving `ledger playstore rtdn` and `voided-sync` as Pub/Sub and Google would.
final class PlayCommandFixture {
    static let package = "com.kibblestreet.td"
    /// One key for every fixture: generating one takes a while.
    static let key: RSATestKey = {
        do { return try RSATestKey() } catch { preconditionFailure("cannot generate an RSA test key: \(error)") }
    }()

    let scratch: ScratchDirectory
    let db: String
    let signer: PubSubPushSigner
    let jwks: String
    private var fileCount = 0

    init() async throws {
        scratch = try ScratchDirectory()
        db = scratch.path("ledger.sqlite")
        signer = try PubSubPushSigner(clock: SystemClock(), key: Self.key)
        jwks = try scratch.write(String(decoding: signer.jwksData, as: UTF8.self), to: "jwks.json")
        let seeded = try await fulfill(["transactionID": "seed", "productID": "test.gems_small", "playerID": "p0"], db: db)
        try #require(seeded.code == 0, "\(seeded.error)")
    }

    /// The options every ledger command takes here, with `purchases` as Google's answers.
    func common(_ purchases: String) -> [String] {
        ["--db", db, "--catalog", repoCatalogPath, "--package", Self.package, "--purchases", purchases]
    }

    /// A new purchases file: `purchases` by token, `subscriptions` by token, `voided` records.
    func purchasesFile(
        _ purchases: [String: [String: Any]], subscriptions: [String: [String: Any]] = [:], voided: [[String: Any]] = []
    ) throws -> String {
        fileCount += 1
        let contents: [String: Any] = ["purchases": purchases, "subscriptions": subscriptions, "voided": voided]
        let data = try JSONSerialization.data(withJSONObject: contents, options: [.sortedKeys])
        return try scratch.write(String(decoding: data, as: UTF8.self), to: "purchases-\(fileCount).json")
    }

    /// Runs `ledger playstore rtdn` on `body` with `authorization` (a genuine token unless given).
    func rtdn(
        _ body: String, purchases: String, authorization: String? = nil, arguments extra: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> LedgerRun {
        let value = try authorization ?? "Bearer " + signer.token()
        return await ledger(
            ["playstore", "rtdn"] + common(purchases) + pushOptions + ["--authorization", value] + extra, input: body,
            environment: environment)
    }

    /// `--audience`, `--push-service-account` and `--jwks`.
    var pushOptions: [String] {
        [
            "--audience", signer.authentication.audience, "--push-service-account",
            signer.authentication.serviceAccountEmail, "--jwks", jwks,
        ]
    }

    /// Runs `ledger playstore voided-sync`.
    func voidedSync(purchases: String) async throws -> LedgerRun {
        await ledger(["playstore", "voided-sync"] + common(purchases))
    }

    /// A Pub/Sub push body carrying a developer notification, as Google sends it.
    static func pushBody(messageID: String, eventTimeMillis: Any = String(hourAgoMilliseconds), _ notification: [String: Any])
        throws -> String
    {
        var developer: [String: Any] = ["version": "1.0", "packageName": package, "eventTimeMillis": eventTimeMillis]
        developer.merge(notification) { _, new in new }
        let data = try JSONSerialization.data(withJSONObject: developer).base64EncodedString()
        let envelope: [String: Any] = ["message": ["data": data, "messageId": messageID], "subscription": "projects/p/subscriptions/s"]
        return String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self)
    }

    /// A voided-purchase push for `token`.
    static func voidBody(messageID: String, token: String, refundType: Int, eventTimeMillis: Int64 = hourAgoMilliseconds) throws
        -> String
    {
        try pushBody(
            messageID: messageID, eventTimeMillis: String(eventTimeMillis),
            ["voidedPurchaseNotification": ["purchaseToken": token, "productType": 2, "refundType": refundType]])
    }

    /// A purchased one-time product push for `token`.
    static func purchasedBody(messageID: String, token: String, sku: String) throws -> String {
        try pushBody(
            messageID: messageID,
            ["oneTimeProductNotification": ["version": "1.0", "notificationType": 1, "purchaseToken": token, "sku": sku]])
    }

    /// An hour ago, inside the 30 days voided purchases can be listed for.
    static let hourAgoMilliseconds = (Int64(Date().timeIntervalSince1970) - 3_600) * 1_000

    /// A purchased gems_small purchase of `quantity` for player p1, `refundable` units not refunded.
    static func gems(quantity: Int, refundable: Int? = nil, state: Int = 0) -> [String: Any] {
        [
            "purchaseState": state, "orderId": "GPA.1", "productId": "gems_small", "quantity": quantity,
            "refundableQuantity": refundable ?? quantity, "obfuscatedExternalAccountId": "p1",
            "purchaseTimeMillis": "1767571200000",
        ]
    }

    /// A voided-purchases record of `token`, `quantity` units when a partial refund.
    static func voided(_ token: String, at milliseconds: Int64, quantity: Int? = nil) -> [String: Any] {
        var record: [String: Any] = [
            "purchaseToken": token, "orderId": "GPA.1", "voidedTimeMillis": String(milliseconds), "voidedSource": 0,
            "voidedReason": 1,
        ]
        if let quantity { record["voidedQuantity"] = quantity }
        return record
    }
}
