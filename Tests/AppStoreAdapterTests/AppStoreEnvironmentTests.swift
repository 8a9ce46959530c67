import AppStoreAdapter
import FulfillmentLedger
import Foundation
import Testing

/// App Store environments map onto the ledger's and keep unknown names.
@Suite struct AppStoreEnvironmentTests {
    @Test func environmentsMapOntoTheLedger() {
        #expect(AppStoreEnvironment.production.storeEnvironment == .production)
        #expect(AppStoreEnvironment.sandbox.storeEnvironment == .sandbox)
        #expect(AppStoreEnvironment.xcode.isLocalTesting && AppStoreEnvironment.localTesting.isLocalTesting)
        #expect(!AppStoreEnvironment.sandbox.isLocalTesting)
    }

    @Test func unknownEnvironmentsSurviveDecoding() throws {
        let decoded = try JSONDecoder().decode([AppStoreEnvironment].self, from: Data(#"["Sandbox","Orbit"]"#.utf8))
        #expect(decoded == [.sandbox, AppStoreEnvironment(rawValue: "Orbit")])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["Sandbox","Orbit"]"#)
    }

    @Test func verificationCodesAreStable() {
        #expect(AppStoreVerificationError.Status.allCases.map(\.code) == [7001, 7002, 7003, 7004, 7005, 7006])
    }
}
