import COpenSSL

/// An OpenSSL `EVP_PKEY` owned by this object and freed with it.
final class OpenSSLPrivateKey {
    /// The key; never shared with another owner.
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Generates a fresh P-256 (prime256v1) key pair.
    static func generateP256() throws -> OpenSSLPrivateKey { try generateEC(group: "P-256") }

    /// Generates a fresh EC key pair on `group` (OpenSSL's name, such as `P-384`).
    static func generateEC(group: String) throws -> OpenSSLPrivateKey {
        // EVP_EC_gen and EVP_PKEY_Q_keygen are a macro and a variadic function, which Swift cannot call.
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw OpenSSLFailure.error("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw OpenSSLFailure.error("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_group_name(context, group) == 1 else {
            throw OpenSSLFailure.error("EVP_PKEY_CTX_set_group_name(\(group))")
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLFailure.error("EVP_PKEY_generate")
        }
        return OpenSSLPrivateKey(owning: generated)
    }

    /// Reads a private key from DER (SEC 1 or PKCS #8).
    convenience init(der: [UInt8]) throws {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw OpenSSLFailure.error("d2i_AutoPrivateKey") }
        self.init(owning: parsed)
    }

    /// The private key as DER, readable by `init(der:)`.
    func derBytes() throws -> [UInt8] {
        try OpenSSLFailure.derEncode("i2d_PrivateKey") { output in i2d_PrivateKey(pointer, output) }
    }

    /// An ECDSA signature with SHA-256 over `message`, DER-encoded as OpenSSL produces it.
    func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLFailure.error("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw OpenSSLFailure.error("EVP_DigestSignInit")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLFailure.error("EVP_DigestSign (length)")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let status = signature.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestSign(context, buffer.baseAddress, &length, message, message.count)
        }
        guard status == 1 else { throw OpenSSLFailure.error("EVP_DigestSign") }
        return Array(signature.prefix(length))
    }
}
