import COpenSSL
import Foundation

/// An OpenSSL `X509` under construction, owned by this object and freed with it.
final class OpenSSLCertificate {
    /// The certificate; never shared with another owner.
    let pointer: OpaquePointer

    /// A blank X.509 v3 certificate with `serial`, named `commonName`, valid over `validity`,
    /// carrying `publicKey`. Its issuer is itself until `setIssuer(_:)` says otherwise.
    init(serial: Int, commonName: String, validity: ClosedRange<Date>, publicKey: OpenSSLPrivateKey) throws {
        guard let created = X509_new() else { throw OpenSSLFailure.error("X509_new") }
        pointer = created
        // Version numbers are zero-based: 2 means X.509 v3, which extensions need.
        guard X509_set_version(pointer, 2) == 1 else { throw OpenSSLFailure.error("X509_set_version") }
        guard ASN1_INTEGER_set(X509_get_serialNumber(pointer), serial) == 1 else {
            throw OpenSSLFailure.error("ASN1_INTEGER_set(serial)")
        }
        let notBefore = time_t(validity.lowerBound.timeIntervalSince1970.rounded(.down))
        let notAfter = time_t(validity.upperBound.timeIntervalSince1970.rounded(.down))
        guard ASN1_TIME_set(X509_getm_notBefore(pointer), notBefore) != nil,
            ASN1_TIME_set(X509_getm_notAfter(pointer), notAfter) != nil
        else { throw OpenSSLFailure.error("ASN1_TIME_set(validity)") }
        let subject = X509_get_subject_name(pointer)
        for (field, value) in [("C", "US"), ("O", "FulfillmentLedger Testing"), ("CN", commonName)] {
            // 0x1001 is MBSTRING_ASC, which Swift does not import because it is an expression.
            guard X509_NAME_add_entry_by_txt(subject, field, 0x1001, value, -1, -1, 0) == 1 else {
                throw OpenSSLFailure.error("X509_NAME_add_entry_by_txt(\(field))")
            }
        }
        guard X509_set_issuer_name(pointer, subject) == 1 else { throw OpenSSLFailure.error("X509_set_issuer_name") }
        guard X509_set_pubkey(pointer, publicKey.pointer) == 1 else { throw OpenSSLFailure.error("X509_set_pubkey") }
    }

    deinit {
        X509_free(pointer)
    }

    /// Names `issuer`'s subject as this certificate's issuer.
    func setIssuer(_ issuer: OpenSSLCertificate) throws {
        guard X509_set_issuer_name(pointer, X509_get_subject_name(issuer.pointer)) == 1 else {
            throw OpenSSLFailure.error("X509_set_issuer_name")
        }
    }

    /// Adds a standard extension written in OpenSSL's configuration syntax, such as
    /// `critical,CA:TRUE` for `NID_basic_constraints`; `issuer` resolves `keyid` references.
    func addExtension(nid: Int32, value: String, issuer: OpenSSLCertificate?) throws {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? pointer, pointer, nil, nil, 0)
        guard let extensionPointer = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
            throw OpenSSLFailure.error("X509V3_EXT_nconf_nid(\(nid), \(value))")
        }
        defer { X509_EXTENSION_free(extensionPointer) }
        guard X509_add_ext(pointer, extensionPointer, -1) == 1 else { throw OpenSSLFailure.error("X509_add_ext") }
    }

    /// Adds a non-critical extension `oid` whose value is DER `NULL` (`05 00`), as Apple marks
    /// its intermediate and receipt-signing certificates.
    func addMarkerExtension(oid: String) throws {
        guard let object = OBJ_txt2obj(oid, 1) else { throw OpenSSLFailure.error("OBJ_txt2obj(\(oid))") }
        defer { ASN1_OBJECT_free(object) }
        guard let value = ASN1_OCTET_STRING_new() else { throw OpenSSLFailure.error("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(value) }
        let derNull: [UInt8] = [0x05, 0x00]
        guard ASN1_OCTET_STRING_set(value, derNull, Int32(derNull.count)) == 1 else {
            throw OpenSSLFailure.error("ASN1_OCTET_STRING_set")
        }
        guard let extensionPointer = X509_EXTENSION_create_by_OBJ(nil, object, 0, value) else {
            throw OpenSSLFailure.error("X509_EXTENSION_create_by_OBJ(\(oid))")
        }
        defer { X509_EXTENSION_free(extensionPointer) }
        guard X509_add_ext(pointer, extensionPointer, -1) == 1 else { throw OpenSSLFailure.error("X509_add_ext") }
    }

    /// Signs the certificate with `key` and SHA-256 (ecdsa-with-SHA256 for a P-256 key).
    func sign(with key: OpenSSLPrivateKey) throws {
        guard X509_sign(pointer, key.pointer, EVP_sha256()) > 0 else { throw OpenSSLFailure.error("X509_sign") }
    }

    /// The signed certificate as DER.
    func derBytes() throws -> [UInt8] {
        try OpenSSLFailure.derEncode("i2d_X509") { output in i2d_X509(pointer, output) }
    }
}
