import COpenSSL
import Foundation

/// A parsed X.509 certificate that owns its OpenSSL `X509`.
///
/// Not `Sendable`: OpenSSL fills some of an `X509`'s caches lazily, so one instance stays on
/// the thread that verifies with it. Trusted roots live inside `X509TrustStore` instead.
final class X509Certificate {
    /// The largest DER certificate accepted; Apple's are under 2 KB, so this only stops abuse.
    static let maximumDERByteCount = 16 * 1024

    /// The owned `X509 *`.
    let pointer: OpaquePointer
    /// The exact DER bytes it was parsed from.
    let der: [UInt8]

    /// Parses one DER certificate; trailing bytes after the certificate are refused.
    init(der: [UInt8]) throws(AppStoreVerificationError) {
        guard !der.isEmpty, der.count <= Self.maximumDERByteCount else {
            throw AppStoreVerificationError(.invalidCertificate, "certificate of \(der.count) bytes")
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            // A DER blob with extra bytes is not the certificate Apple sent; refuse it whole.
            guard cursor == start + buffer.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else {
            ERR_clear_error()
            throw AppStoreVerificationError(.invalidCertificate, "not a DER X.509 certificate")
        }
        pointer = parsed
        self.der = der
    }

    deinit { X509_free(pointer) }

    /// The start of the validity period, or nil when OpenSSL cannot read it.
    var notBefore: Date? { Self.date(X509_get0_notBefore(pointer)) }

    /// The end of the validity period, or nil when OpenSSL cannot read it.
    var notAfter: Date? { Self.date(X509_get0_notAfter(pointer)) }

    /// The validity period as a closed range, or nil when either end is unreadable or reversed.
    var validity: ClosedRange<Date>? { Self.validity(of: pointer) }

    /// Whether the certificate carries an extension with the dotted OID `oid`, whatever its value.
    func hasExtension(oid: String) -> Bool {
        // `no_name` = 1: the text is always read as a numeric OID, never as a short name.
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// The extension flags OpenSSL derives (EXFLAG_*); computing them also validates extensions.
    private var extensionFlags: UInt32 { X509_get_extension_flags(pointer) }

    /// Whether OpenSSL found a malformed or duplicated extension.
    var hasInvalidExtensions: Bool { extensionFlags & UInt32(EXFLAG_INVALID) != 0 }

    /// Whether basic constraints mark the certificate as a certificate authority.
    var isCertificateAuthority: Bool {
        let flags = extensionFlags
        return flags & UInt32(EXFLAG_BCONS) != 0 && flags & UInt32(EXFLAG_CA) != 0
    }

    /// Whether the key may sign data: true without a key-usage extension (no restriction),
    /// otherwise only when digitalSignature is set.
    var allowsDigitalSignature: Bool {
        guard extensionFlags & UInt32(EXFLAG_KUSAGE) != 0 else { return true }
        return X509_get_key_usage(pointer) & UInt32(KU_DIGITAL_SIGNATURE) != 0
    }

    /// The subject public key, required to be an EC P-256 key.
    func es256PublicKey() throws(AppStoreVerificationError) -> ES256PublicKey {
        // X509_get_pubkey adds a reference, which ES256PublicKey then owns and frees.
        guard let key = X509_get_pubkey(pointer) else {
            ERR_clear_error()
            throw AppStoreVerificationError(.verificationFailure, "leaf public key unreadable")
        }
        return try ES256PublicKey(owning: key)
    }

    /// The validity period of any `X509 *`, including ones this wrapper does not own.
    static func validity(of certificate: OpaquePointer) -> ClosedRange<Date>? {
        guard let start = date(X509_get0_notBefore(certificate)),
            let end = date(X509_get0_notAfter(certificate)), start <= end
        else { return nil }
        return start...end
    }

    /// Converts an ASN1_TIME (UTCTime or GeneralizedTime, always UTC in certificates) to a Date.
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var fields = tm()
        guard ASN1_TIME_to_tm(time, &fields) == 1 else {
            ERR_clear_error()
            return nil
        }
        // timegm, not mktime: certificate times are UTC and the process time zone must not leak in.
        return Date(timeIntervalSince1970: TimeInterval(timegm(&fields)))
    }
}
