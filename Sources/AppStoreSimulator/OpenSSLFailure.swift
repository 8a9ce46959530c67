import COpenSSL

/// Turns failed OpenSSL calls into `AppStoreSimulatorError`s carrying OpenSSL's error queue.
package enum OpenSSLFailure {
    /// An error naming `call`, with the text of every error OpenSSL queued; empties the queue.
    package static func error(_ call: String) -> AppStoreSimulatorError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            reasons.append(String(decoding: bytes, as: UTF8.self))
        }
        let suffix = reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")
        return AppStoreSimulatorError("\(call) failed\(suffix)")
    }

    /// Runs an OpenSSL `i2d_*` function twice, once for the length and once to write, and returns the DER.
    static func derEncode(
        _ call: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws -> [UInt8] {
        let length = encode(nil)
        guard length > 0 else { throw error(call) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { throw error(call) }
        return bytes
    }

    /// `key`'s private key as PKCS #8 PEM (`BEGIN PRIVATE KEY`), the form of Google's service
    /// account keys and of App Store Connect's `.p8` files.
    package static func pkcs8PEM(of key: OpaquePointer) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw error("BIO_new") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw error("PEM_write_bio_PrivateKey")
        }
        let pendingByteCount = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pendingByteCount)
        let readByteCount = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pendingByteCount)) }
        return String(decoding: bytes.prefix(Int(max(0, readByteCount))), as: UTF8.self)
    }
}
