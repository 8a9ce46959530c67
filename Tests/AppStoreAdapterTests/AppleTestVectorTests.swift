import AppStoreAdapter
import FulfillmentLedger
import Foundation
import Testing

/// Apple's published test vectors, read in place from `../shared/vectors/apple/` next to the
/// package; never copied into the repository.
enum AppleVectors {
    /// The vectors folder, located from this file so the working directory does not matter.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AppStoreAdapterTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/vectors/apple", isDirectory: true)
        .standardizedFileURL

    /// Whether the vectors are present.
    static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("README.md").path)
    }

    /// The effective time of Apple's chain cases, in Unix seconds.
    static let chainTime = Date(timeIntervalSince1970: 1_761_962_975)

    /// A JWS vector, whitespace trimmed.
    static func jws(_ path: String) throws -> String {
        let text = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A DER certificate from `certs/`.
    static func der(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent("certs/\(name).der")))
    }

    /// A verifier trusting `certs/testCA.der`, as Apple's mock-data tests configure it.
    static func mockVerifier(
        _ environment: AppStoreEnvironment, bundleID: String = "com.example", appAppleID: Int64? = 1234
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [der("testCA")], bundleID: bundleID, environment: environment,
                appAppleID: appAppleID))
    }

    /// A verifier trusting the given roots from `certs/`, for the chain cases.
    static func chainVerifier(trusting roots: [String]) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: roots.map(der), bundleID: "com.example", environment: .sandbox))
    }

    /// The bundle ID of the Xcode vectors.
    static let xcodeBundleID = "com.example.naturelab.backyardbirds.example"
}

/// The status of a failed result, or nil when it succeeded.
func failureStatus<Value>(_ result: Result<Value, AppStoreVerificationError>) -> AppStoreVerificationError.Status? {
    if case .failure(let error) = result { return error.status }
    return nil
}

/// Every case of the vectors README, with Apple's expected result.
@Suite(.enabled(if: AppleVectors.available, "Apple's test vectors are absent from ../shared/vectors/apple"))
struct AppleTestVectorTests {
    // MARK: mock_signed_data

    @Test func transactionInfoIsValid() throws {
        let transaction = try AppleVectors.mockVerifier(.sandbox)
            .verifyTransaction(AppleVectors.jws("mock_signed_data/transactionInfo")).get()
        #expect(transaction.environment == .sandbox)
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.signedDate == 1_672_956_154_000)
    }

    @Test func renewalInfoIsValid() throws {
        let renewalInfo = try AppleVectors.mockVerifier(.sandbox)
            .verifyRenewalInfo(AppleVectors.jws("mock_signed_data/renewalInfo")).get()
        #expect(renewalInfo.environment == .sandbox)
    }

    @Test func testNotificationIsValidInSandbox() throws {
        let notification = try AppleVectors.mockVerifier(.sandbox)
            .verifyNotification(AppleVectors.jws("mock_signed_data/testNotification")).get()
        #expect(notification.notificationType == .test)
        #expect(notification.data?.appAppleId == 1234)
        #expect(notification.transaction == nil && notification.renewalInfo == nil)
    }

    @Test func testNotificationHasTheWrongEnvironmentForProduction() throws {
        let result = try AppleVectors.mockVerifier(.production, appAppleID: 1234)
            .verifyNotification(AppleVectors.jws("mock_signed_data/testNotification"))
        #expect(failureStatus(result) == .invalidEnvironment)
    }

    @Test func testNotificationHasTheWrongAppAppleIDForProduction() throws {
        let result = try AppleVectors.mockVerifier(.production, appAppleID: 1235)
            .verifyNotification(AppleVectors.jws("mock_signed_data/testNotification"))
        #expect(failureStatus(result) == .invalidAppIdentifier)
    }

    @Test func wrongBundleIDIsRefused() throws {
        let result = try AppleVectors.mockVerifier(.sandbox, bundleID: "com.examplex")
            .verifyNotification(AppleVectors.jws("mock_signed_data/wrongBundleId"))
        #expect(failureStatus(result) == .invalidAppIdentifier)
    }

    @Test func missingX5CIsAVerificationFailure() throws {
        let result = try AppleVectors.mockVerifier(.sandbox)
            .verifyNotification(AppleVectors.jws("mock_signed_data/missingX5CHeaderClaim"))
        #expect(failureStatus(result) == .verificationFailure)
    }

    @Test func legacyReceiptIsNotAJWS() throws {
        let verifier = try AppleVectors.mockVerifier(.sandbox)
        let legacy = try AppleVectors.jws("mock_signed_data/legacyTransaction")
        #expect(failureStatus(verifier.verifyTransaction(legacy)) == .verificationFailure)
        #expect(failureStatus(verifier.verifyRenewalInfo(legacy)) == .verificationFailure)
        #expect(failureStatus(verifier.verifyNotification(legacy)) == .verificationFailure)
        #expect(failureStatus(verifier.verifyAppTransaction(legacy)) == .verificationFailure)
    }

    @Test(arguments: ["a.b.c.d", "a.b.c"])
    func malformedJWSIsAVerificationFailure(_ text: String) throws {
        let verifier = try AppleVectors.mockVerifier(.sandbox)
        #expect(failureStatus(verifier.verifyNotification(text)) == .verificationFailure)
        #expect(failureStatus(verifier.verifyTransaction(text)) == .verificationFailure)
    }

    @Test func repeatedVerificationUsesTheChainCache() throws {
        let verifier = try AppleVectors.mockVerifier(.sandbox)
        let jws = try AppleVectors.jws("mock_signed_data/transactionInfo")
        #expect(verifier.cachedChainCount == 0)
        _ = try verifier.verifyTransaction(jws).get()
        #expect(verifier.cachedChainCount == 1)
        _ = try verifier.verifyTransaction(jws).get()
        #expect(verifier.cachedChainCount == 1)
        // The cached chain does not excuse a tampered signature.
        let tampered = String(jws.dropLast(2)) + (jws.hasSuffix("AA") ? "BA" : "AA")
        #expect(failureStatus(verifier.verifyTransaction(tampered)) == .verificationFailure)
    }

    @Test func chainCacheIsBoundedAndEvictsTheOldest() throws {
        // transactionInfo and renewalInfo carry different x5c chains under the same root.
        let transaction = try AppleVectors.jws("mock_signed_data/transactionInfo")
        let renewal = try AppleVectors.jws("mock_signed_data/renewalInfo")
        let configuration = AppStoreVerifierConfiguration(
            rootCertificates: [try AppleVectors.der("testCA")], bundleID: "com.example", environment: .sandbox,
            chainCacheCountMax: 1)
        let verifier = try SignedDataVerifier(configuration)
        _ = try verifier.verifyTransaction(transaction).get()
        _ = try verifier.verifyRenewalInfo(renewal).get()
        _ = try verifier.verifyTransaction(transaction).get()
        #expect(verifier.cachedChainCount == 1)
        var uncached = configuration
        uncached.chainCacheCountMax = 0
        let noCache = try SignedDataVerifier(uncached)
        _ = try noCache.verifyTransaction(transaction).get()
        #expect(noCache.cachedChainCount == 0)
    }

    // MARK: xcode

    @Test func xcodeTransactionDecodesForAnXcodeVerifier() throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [], bundleID: AppleVectors.xcodeBundleID, environment: .xcode))
        let transaction = try verifier.verifyTransaction(AppleVectors.jws("xcode/xcode-signed-transaction")).get()
        #expect(transaction.transactionId == "0" && transaction.originalTransactionId == "0")
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.quantity == 1)
        #expect(transaction.purchaseDate == 1_697_679_936_049)
        #expect(transaction.signedDate == 1_697_679_936_056)
        #expect(transaction.environment == .xcode)
        #expect(transaction.storefront == "USA" && transaction.storefrontId == "143441")
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.offerType == .introductoryOffer)
    }

    @Test func xcodeRenewalInfoAndAppTransactionDecodeForAnXcodeVerifier() throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [], bundleID: AppleVectors.xcodeBundleID, environment: .xcode))
        let renewal = try verifier.verifyRenewalInfo(AppleVectors.jws("xcode/xcode-signed-renewal-info")).get()
        #expect(renewal.environment == .xcode && renewal.autoRenewStatus == .on)
        #expect(renewal.renewalDate == 1_700_358_336_049)
        let app = try verifier.verifyAppTransaction(AppleVectors.jws("xcode/xcode-signed-app-transaction")).get()
        #expect(app.receiptType == .xcode && app.bundleId == AppleVectors.xcodeBundleID)
        #expect(app.originalPurchaseDate == -62_135_769_600_000)
    }

    @Test(arguments: [AppStoreEnvironment.production, .sandbox])
    func xcodeVectorsAreRefusedOutsideXcode(_ environment: AppStoreEnvironment) throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [AppleVectors.der("real_apple_root"), AppleVectors.der("testCA")],
                bundleID: AppleVectors.xcodeBundleID, environment: environment, appAppleID: 1234))
        let transaction = try AppleVectors.jws("xcode/xcode-signed-transaction")
        let renewal = try AppleVectors.jws("xcode/xcode-signed-renewal-info")
        let app = try AppleVectors.jws("xcode/xcode-signed-app-transaction")
        // One self-signed certificate in x5c: refused before any key is trusted.
        #expect(failureStatus(verifier.verifyTransaction(transaction)) == .invalidChainLength)
        #expect(failureStatus(verifier.verifyRenewalInfo(renewal)) == .invalidChainLength)
        #expect(failureStatus(verifier.verifyAppTransaction(app)) == .invalidChainLength)
    }

    @Test func xcodeVectorsAreRefusedByALocalTestingVerifier() throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [], bundleID: AppleVectors.xcodeBundleID, environment: .localTesting))
        let result = verifier.verifyTransaction(try AppleVectors.jws("xcode/xcode-signed-transaction"))
        #expect(failureStatus(result) == .invalidEnvironment)
    }
}

/// The certificate-chain cases of Apple's vectors (`certs/`), at Apple's effective time.
@Suite(.enabled(if: AppleVectors.available, "Apple's test vectors are absent from ../shared/vectors/apple"))
struct AppStoreVerifierChainVectorTests {
    /// Verifies `chain` (names in `certs/`) against `roots` at `date`.
    private func verify(
        _ chain: [String], trusting roots: [String] = ["root_ca"], at date: Date = AppleVectors.chainTime
    ) throws -> Result<VerifiedCertificateChain, AppStoreVerificationError> {
        try AppleVectors.chainVerifier(trusting: roots).verifyChain(chain.map(AppleVectors.der), at: date)
    }

    @Test func validChainYieldsTheLeafKey() throws {
        let chain = try verify(["leaf_cert", "intermediate_ca", "root_ca"]).get()
        let leaf = try AppleVectors.der("leaf_cert")
        // A SubjectPublicKeyInfo sits verbatim inside its certificate's DER.
        #expect(chain.leafPublicKey.count == 91)
        #expect(contains(leaf, chain.leafPublicKey))
        #expect(chain.validity.contains(AppleVectors.chainTime))
    }

    @Test func intermediateWithoutAppleOIDIsRefused() throws {
        let result = try verify(["leaf_cert_for_intermediate_ca_invalid_oid", "intermediate_ca_invalid_oid", "root_ca"])
        #expect(failureStatus(result) == .verificationFailure)
    }

    @Test func leafWithoutAppleOIDIsRefused() throws {
        let result = try verify(["leaf_cert_invalid_oid", "intermediate_ca", "root_ca"])
        #expect(failureStatus(result) == .verificationFailure)
    }

    @Test func twoCertificatesAreAnInvalidChainLength() throws {
        #expect(failureStatus(try verify(["intermediate_ca", "root_ca"])) == .invalidChainLength)
    }

    @Test func chainToAnotherRootIsRefused() throws {
        let result = try verify(["leaf_cert", "intermediate_ca", "root_ca"], trusting: ["real_apple_root"])
        #expect(failureStatus(result) == .verificationFailure)
    }

    @Test func expiredChainIsRefused() throws {
        let later = Date(timeIntervalSince1970: 2_280_946_846)
        let result = try verify(["leaf_cert", "intermediate_ca", "root_ca"], at: later)
        #expect(failureStatus(result) == .verificationFailure)
    }

    @Test func expiredDateIsRefusedEvenAfterTheChainWasCached() throws {
        let verifier = try AppleVectors.chainVerifier(trusting: ["root_ca"])
        let chain = try ["leaf_cert", "intermediate_ca", "root_ca"].map(AppleVectors.der)
        _ = try verifier.verifyChain(chain, at: AppleVectors.chainTime).get()
        #expect(verifier.cachedChainCount == 1)
        let later = Date(timeIntervalSince1970: 2_280_946_846)
        #expect(failureStatus(verifier.verifyChain(chain, at: later)) == .verificationFailure)
    }

    @Test func realAppleChainIsValidOffline() throws {
        let result = try verify(
            ["real_apple_signing_certificate", "real_apple_intermediate", "real_apple_root"],
            trusting: ["real_apple_root"])
        #expect(throws: Never.self) { try result.get() }
    }

    @Test func unparsableLeafIsAnInvalidCertificate() throws {
        let verifier = try AppleVectors.chainVerifier(trusting: ["root_ca"])
        let rest = try ["intermediate_ca", "root_ca"].map(AppleVectors.der)
        let time = AppleVectors.chainTime
        #expect(failureStatus(verifier.verifyChain([Array("abc".utf8)] + rest, at: time)) == .invalidCertificate)
        // As Apple's test passes it: the string "abc" in place of the leaf's base64.
        let base64 = ["abc"] + rest.map { Data($0).base64EncodedString() }
        #expect(failureStatus(verifier.verifyChain(base64Certificates: base64, at: time)) == .invalidCertificate)
    }

    @Test func realAppleRootHasTheG3Fingerprint() throws {
        let fingerprint = SHA256.hash(try AppleVectors.der("real_apple_root"))
            .map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(
            fingerprint
                == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
    }

    /// Whether `needle` occurs contiguously in `haystack`.
    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
