// libFuzzer target: arbitrary bytes as App Store Server Notifications. Build and run with Fuzz/build.sh.
//
// The body is Tests/AppStoreAdapterTests/AppStoreNotificationFuzzBody.swift, which
// AppStoreNotificationFuzzTests also runs over seeded inputs in CI. The first byte of an input picks
// what the rest is: the signed payload text itself, the outer notification's payload JSON (signed here
// by a generated chain the verifier trusts), or the nested transaction's payload JSON inside a signed
// notification. Each input gets a fresh in-memory ledger holding a 3-unit, 300-gem purchase and is
// processed twice; the body checks that nothing throws, every outcome is typed, a rejection changes
// nothing, a redelivery changes nothing more, and the gems stay within 0...300.
import AppStoreAdapter
import Dispatch
import Foundation
import FulfillmentLedger
import Synchronization

/// The body, with a chain generated at start-up and the repository's ProductCatalog.json (embedded
/// by build.sh as `fuzzCatalogJSON`).
let body: AppStoreNotificationFuzzBody = {
    do {
        let authority = try AppStoreTestCertificateAuthority()
        let signer = AppStoreJWSSigner(certificateAuthority: authority)
        return try AppStoreNotificationFuzzBody(
            catalog: try CatalogLoader.parse(Array(fuzzCatalogJSON.utf8)), rootCertificateDER: authority.rootCertificateDER,
            sign: { try signer.sign(payload: $0) }, makeStore: { InMemoryLedgerStore() })
    } catch {
        fatalError("fuzz set-up failed: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Runs the async body to completion from this synchronous entry point.
    let result = Mutex<Result<AppStoreNotificationFuzzBody.Report, AppStoreNotificationFuzzBody.Violation>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome = await body.run(bytes)
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    switch result.withLock({ $0 }) {
    case .success: return 0
    case .failure(let violation): fatalError("fuzz invariant failed: \(violation)")
    case nil: fatalError("fuzz invariant failed: no result")
    }
}
