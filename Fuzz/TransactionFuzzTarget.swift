// libFuzzer target: arbitrary bytes as store input. Build and run with Fuzz/build.sh.
//
// The same bytes go to the project's JSON parser, to the test store's transaction decoder and
// verifier, and to the revocation-event decoder. Beyond "never crash, never hang" it checks:
// - JSONParser: writing a parsed document back out and parsing it again is a fixed point;
// - TestStoreTransaction: encoding is stable after one round trip, and the verifier, which decodes
//   the document's own encoding, vouches exactly when the document says it may, for the same facts;
// - the verifier on the raw bytes vouches only for what the decoder accepts;
// - RevocationEvent: a decoded event survives encoding and decoding unchanged, as a redelivered
//   event must to be recognised as the same one;
// - the catalog lookup of a decoded transaction's product maps back to that store product ID.
import Dispatch
import Foundation
import FulfillmentLedger
import Synchronization

/// The repository's ProductCatalog.json, embedded by build.sh as `fuzzCatalogJSON`.
let sampleCatalog: ProductCatalog = {
    do { return try CatalogLoader.parse(Array(fuzzCatalogJSON.utf8)) } catch { fail("\(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkParser(bytes)
    checkTransaction(Data(bytes))
    checkVerifierOnRawPayload(bytes)
    checkRevocationEvent(Data(bytes))
    return 0
}

// MARK: - JSONParser

func checkParser(_ bytes: [UInt8]) {
    guard let value = try? JSONParser().parse(bytes) else { return }
    let written = canonical(value)
    let reparsed: JSONValue
    do {
        reparsed = try JSONParser().parse(written)
    } catch {
        fail("the parser rejects its own output \(written): \(error)")
    }
    check(canonical(reparsed) == written, "parse(write(x)) differs from x for \(written)")
}

/// The value written back out as compact JSON, without positions.
func canonical(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag, _): return flag ? "true" : "false"
    case .integer(let number, _): return String(number)
    case .integerOverflow(let literal, _): return literal
    case .number(let number, _):
        check(number.isFinite, "the parser produced a non-finite number")
        return "\(number)"
    case .string(let text, _): return JSONValue.encodeString(text)
    case .array(let elements, _): return "[" + elements.map(canonical).joined(separator: ",") + "]"
    case .object(let object, _):
        let members = object.members.map { JSONValue.encodeString($0.key) + ":" + canonical($0.value) }
        return "{" + members.joined(separator: ",") + "}"
    }
}

// MARK: - TestStoreTransaction and the verifier

func checkTransaction(_ data: Data) {
    guard let document = try? TestStoreTransaction.decoder().decode(TestStoreTransaction.self, from: data) else {
        return
    }
    // Every field must survive exactly; dates at the ledger's millisecond precision, which is all the
    // encoding carries (see README, finding 1, fixed), and a second round trip changes no date at all.
    let decoded = decodeTransaction(encode(document))
    check(
        decoded.transactionID == document.transactionID && decoded.storeProductID == document.storeProductID
            && decoded.playerID == document.playerID && decoded.quantity == document.quantity
            && decoded.state == document.state && decoded.store == document.store
            && decoded.environment == document.environment && decoded.verified == document.verified
            && decoded.accountBinding == document.accountBinding,
        "a round trip changed the document")
    checkExactDate(document.purchaseDate, decoded.purchaseDate, "purchaseDate")
    switch (document.revocationDate, decoded.revocationDate) {
    case (nil, nil): break
    case (let original?, let roundTripped?): checkExactDate(original, roundTripped, "revocationDate")
    default: fail("a round trip added or dropped the revocation date")
    }
    let again = decodeTransaction(encode(decoded))
    check(
        again.purchaseDate == decoded.purchaseDate && again.revocationDate == decoded.revocationDate,
        "a second round trip moved a date: \(String(decoding: encode(decoded), as: UTF8.self))")

    let submission = document.submission()
    let result = verify(submission)
    let mayVouch = submission.payload.utf8.count <= TestStoreVerifier.payloadByteCountMax && document.verified
        && document.store == .test && document.environment != .production
    switch result {
    case .verified(let facts):
        check(mayVouch, "the verifier vouched for a document it must refuse")
        check(
            facts.transactionID == document.transactionID && facts.storeProductID == document.storeProductID
                && facts.quantity == document.quantity && facts.state == document.state
                && facts.store == document.store && facts.environment == document.environment
                && facts.accountBinding == document.accountBinding,
            "the verifier vouched for other facts than the document's")
    case .invalid(let reason):
        check(!mayVouch, "the verifier refused a document it should vouch for: \(reason)")
    }

    if let product = sampleCatalog.product(store: document.store, storeProductID: document.storeProductID) {
        check(product.storeProductIDs[document.store] == document.storeProductID)
        check(sampleCatalog.product(id: product.id) == product)
    }
}

func checkVerifierOnRawPayload(_ bytes: [UInt8]) {
    let payload = String(decoding: bytes, as: UTF8.self)
    let submission = TransactionSubmission(
        store: .test, transactionID: "t", storeProductID: "test.gems_small", playerID: "p", payload: payload)
    guard case .verified(let facts) = verify(submission) else { return }
    let document: TestStoreTransaction
    do {
        document = try TestStoreTransaction.decoder().decode(TestStoreTransaction.self, from: Data(payload.utf8))
    } catch {
        fail("the verifier vouched for a payload the decoder rejects: \(error)")
    }
    check(document.verified && document.store == .test && document.environment != .production)
    check(facts.transactionID == document.transactionID && facts.quantity == document.quantity)
}

func encode(_ document: TestStoreTransaction) -> Data {
    do { return try TestStoreTransaction.encoder().encode(document) } catch {
        fail("a decoded document does not encode: \(error)")
    }
}

func decodeTransaction(_ data: Data) -> TestStoreTransaction {
    do { return try TestStoreTransaction.decoder().decode(TestStoreTransaction.self, from: data) } catch {
        fail("the decoder rejects the encoder's output \(String(decoding: data, as: UTF8.self)): \(error)")
    }
}

/// Runs the (never suspending) async verifier to completion from this synchronous entry point.
func verify(_ submission: TransactionSubmission) -> VerificationResult {
    let result = Mutex<VerificationResult?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let verdict: VerificationResult
        do {
            verdict = try await TestStoreVerifier().verify(submission)
        } catch {
            fail("the test store verifier threw \(error)")
        }
        result.withLock { $0 = verdict }
        done.signal()
    }
    done.wait()
    guard let verdict = result.withLock({ $0 }) else { fail("no verdict") }
    return verdict
}

/// A date after an encode-decode round trip: exactly the same millisecond. The encoding writes the ledger's
/// integer milliseconds (`Date.ledgerISO8601`), and `Date.ledgerMilliseconds` snaps a parsed value a hair
/// below its millisecond back onto it, so nothing may drift (README, finding 1).
func checkExactDate(_ original: Date, _ roundTripped: Date, _ field: String) {
    check(
        roundTripped.ledgerMilliseconds == original.ledgerMilliseconds,
        "\(field) moved in a round trip: \(original.ledgerMilliseconds) ms -> \(roundTripped.ledgerMilliseconds) ms")
}

// MARK: - RevocationEvent

func checkRevocationEvent(_ data: Data) {
    guard let event = try? TestStoreTransaction.decoder().decode(RevocationEvent.self, from: data) else { return }
    let encoded: Data
    do { encoded = try TestStoreTransaction.encoder().encode(event) } catch {
        fail("a decoded event does not encode: \(error)")
    }
    let redelivered: RevocationEvent
    do { redelivered = try TestStoreTransaction.decoder().decode(RevocationEvent.self, from: encoded) } catch {
        fail("the decoder rejects the encoder's event \(String(decoding: encoded, as: UTF8.self)): \(error)")
    }
    // RevocationEvent keeps whole milliseconds, so the redelivered event is identical, date included.
    check(redelivered == event, "a redelivered event differs from the original: \(String(decoding: encoded, as: UTF8.self))")
    _ = RevocationKind.supported.contains(event.kind)
    _ = event.kind.takesBack
}

/// Stops the run with a message (a plain `precondition` prints none in an -O build).
func check(_ condition: Bool, _ message: @autoclosure () -> String = "", file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError("fuzz invariant failed: \(message())", file: file, line: line) }
}

func fail(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("fuzz invariant failed: \(message)", file: file, line: line)
}
