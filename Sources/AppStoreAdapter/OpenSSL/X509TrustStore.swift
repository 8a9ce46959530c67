import COpenSSL
import Foundation

/// The configured root certificates, held in an OpenSSL `X509_STORE`, and the chain check
/// that builds leaf → intermediate → one of those roots at a chosen time.
///
/// `@unchecked Sendable` because the store is filled in init and never changed after; OpenSSL
/// locks its own lookups, so many threads may verify against one store (as TLS servers do).
final class X509TrustStore: @unchecked Sendable {
    /// Certificates in a chain Apple signs with: leaf, intermediate, root.
    static let chainLength = 3

    /// The owned `X509_STORE *`.
    private let store: OpaquePointer

    /// Adds every root to a fresh store. No default system paths are loaded: only the
    /// roots the user passed are trusted.
    init(roots: [X509Certificate]) throws(AppStoreVerificationError) {
        guard let store = X509_STORE_new() else {
            throw AppStoreVerificationError(.invalidCertificate, "X509_STORE_new failed")
        }
        self.store = store
        // The store takes its own reference to each root, so the wrappers may be freed after.
        for root in roots {
            guard X509_STORE_add_cert(store, root.pointer) == 1 else {
                ERR_clear_error()
                throw AppStoreVerificationError(.invalidCertificate, "root certificate rejected by the store")
            }
        }
    }

    deinit { X509_STORE_free(store) }

    /// Verifies `leaf` through `intermediate` to a trusted root as of `date`, and returns the
    /// interval in which all three certificates of the built chain are valid.
    ///
    /// Strict X.509 mode stays off: Apple's test certificates lack key identifiers, and Apple
    /// verifies its own chains the same way.
    func validityOfChain(
        leaf: X509Certificate, intermediate: X509Certificate, at date: Date
    ) throws(AppStoreVerificationError) -> ClosedRange<Date> {
        guard let untrusted = OPENSSL_sk_new_null() else { throw Self.failure("stack allocation failed") }
        defer { OPENSSL_sk_free(untrusted) }
        // Only the intermediate is offered; the root in x5c is ignored so trust can only come
        // from the configured roots.
        guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.pointer)) > 0 else {
            throw Self.failure("stack push failed")
        }
        guard let context = X509_STORE_CTX_new() else { throw Self.failure("context allocation failed") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            throw Self.failure("context init failed")
        }
        X509_STORE_CTX_set_time(context, 0, time_t(date.timeIntervalSince1970.rounded(.down)))
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            throw Self.failure("chain rejected: " + String(cString: X509_verify_cert_error_string(Int(code))))
        }
        return try Self.validityOfBuiltChain(context, intermediate: intermediate)
    }

    /// Checks the chain OpenSSL built is exactly leaf, the given intermediate, and a root, and
    /// intersects the three validity periods.
    private static func validityOfBuiltChain(
        _ context: OpaquePointer, intermediate: X509Certificate
    ) throws(AppStoreVerificationError) -> ClosedRange<Date> {
        // get0: the chain belongs to the context and is freed with it.
        guard let chain = X509_STORE_CTX_get0_chain(context), OPENSSL_sk_num(chain) == Int32(chainLength) else {
            throw failure("chain is not leaf, intermediate, root")
        }
        var start = Date.distantPast
        var end = Date.distantFuture
        for index in 0..<chainLength {
            guard let element = OPENSSL_sk_value(chain, Int32(index)) else { throw failure("chain element missing") }
            let certificate = OpaquePointer(element)
            // A leaf issued straight by a root, or via another intermediate, is not Apple's shape.
            if index == 1, X509_cmp(certificate, intermediate.pointer) != 0 {
                throw failure("chain does not pass through the x5c intermediate")
            }
            guard let validity = X509Certificate.validity(of: certificate) else {
                throw failure("unreadable validity period")
            }
            start = max(start, validity.lowerBound)
            end = min(end, validity.upperBound)
        }
        guard start <= end else { throw failure("validity periods do not overlap") }
        return start...end
    }

    /// A verification failure, clearing OpenSSL's per-thread error queue first.
    private static func failure(_ detail: String) -> AppStoreVerificationError {
        ERR_clear_error()
        return AppStoreVerificationError(.verificationFailure, detail)
    }
}
