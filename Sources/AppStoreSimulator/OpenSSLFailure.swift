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
}
