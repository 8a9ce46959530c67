import COpenSSL
import FulfillmentLedger

/// HMAC-SHA256 (RFC 2104) through OpenSSL's libcrypto: the MAC Stripe signs webhooks with.
enum HMACSHA256 {
    /// Bytes of a SHA-256 MAC.
    static let byteCount = 32

    /// The MAC of `message` under `key`; nil only when libcrypto fails, which it does not for
    /// valid lengths.
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                output.withUnsafeMutableBufferPointer { outputBytes in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count,
                        outputBytes.baseAddress, &length)
                }
            }
        }
        guard result != nil, length == byteCount else { return nil }
        return Array(output.prefix(byteCount))
    }
}
