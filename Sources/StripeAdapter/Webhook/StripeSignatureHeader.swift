/// The `Stripe-Signature` header, parsed: `t=<unix seconds>,v1=<hex>,v1=<hex>,v0=<hex>`.
///
/// Stripe signs `"<t>.<raw body>"` with HMAC-SHA256 under the endpoint's signing secret and
/// sends one `v1` element per secret that is active (two while a secret is rolled). Other
/// schemes (`v0`, test mode's legacy one) are ignored.
struct StripeSignatureHeader: Hashable, Sendable {
    /// Longest header read, in bytes.
    static let byteCountMax = 8 * 1024
    /// Most elements read from one header.
    static let elementCountMax = 32
    /// Characters of one `v1` signature: 32 bytes in hexadecimal.
    static let signatureCharacterCount = HMACSHA256.byteCount * 2
    /// Most digits of the timestamp: seconds up to 9999-12-31.
    static let timestampDigitCountMax = 12

    /// When Stripe signed, in seconds since 1970.
    var timestampSeconds: Int64
    /// The `v1` signatures, lowercase hexadecimal.
    var signatures: [String]

    /// Parses `text`; nil with the reason when it is not a header Stripe sends.
    static func parse(_ text: String) -> Result<StripeSignatureHeader, StripeWebhookRefusal> {
        guard text.utf8.count <= byteCountMax else { return .failure(.malformedHeader("longer than \(byteCountMax) bytes")) }
        let elements = text.split(separator: ",", omittingEmptySubsequences: false)
        guard elements.count <= elementCountMax else { return .failure(.malformedHeader("more than \(elementCountMax) elements")) }
        var timestamp: Int64?
        var signatures: [String] = []
        for element in elements {
            let parts = element.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return .failure(.malformedHeader("an element is not key=value")) }
            let key = parts[0].trimmingSpaces
            let value = parts[1].trimmingSpaces
            switch key {
            case "t":
                guard timestamp == nil else { return .failure(.malformedHeader("t appears twice")) }
                guard !value.isEmpty, value.utf8.count <= timestampDigitCountMax, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    let seconds = Int64(value)
                else { return .failure(.malformedHeader("t is not a whole number of seconds")) }
                timestamp = seconds
            case "v1":
                guard value.utf8.count == signatureCharacterCount,
                    value.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
                else { return .failure(.malformedHeader("a v1 signature is not \(signatureCharacterCount) hexadecimal digits")) }
                signatures.append(value.lowercased())
            default:
                continue
            }
        }
        guard let timestamp else { return .failure(.malformedHeader("no t element")) }
        guard !signatures.isEmpty else { return .failure(.noSignature) }
        return .success(StripeSignatureHeader(timestampSeconds: timestamp, signatures: signatures))
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
