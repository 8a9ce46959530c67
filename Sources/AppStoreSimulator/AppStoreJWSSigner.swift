import AppStoreAdapter
import COpenSSL
import Foundation

/// Signs payloads as the App Store does: a compact JWS whose header is
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}` and whose signature is ECDSA P-256 with
/// SHA-256 over `header.payload`, written as the raw 64 bytes `r ‖ s`. `Options` bends each
/// of those rules so tests can check that a verifier refuses the result.
public struct AppStoreJWSSigner: Sendable {
    /// The chain whose leaf key signs and whose certificates fill `x5c`.
    public let certificateAuthority: AppStoreTestCertificateAuthority
    /// How the header and signature are written.
    public var options: Options

    /// A signer for `certificateAuthority`'s leaf key.
    public init(certificateAuthority: AppStoreTestCertificateAuthority, options: Options = Options()) {
        self.certificateAuthority = certificateAuthority
        self.options = options
    }

    /// The header JSON this signer writes.
    public var headerJSON: String {
        var members: [String] = []
        if let algorithm = options.algorithm {
            members.append("\"alg\":\(Self.jsonString(algorithm))")
        }
        let certificates: [[UInt8]]?
        switch options.certificates {
        case .chain: certificates = certificateAuthority.certificateChainDER
        case .omitted: certificates = nil
        case .custom(let custom): certificates = custom
        }
        if let certificates {
            let encoded = certificates.map { "\"" + Data($0).base64EncodedString() + "\"" }
            members.append("\"x5c\":[" + encoded.joined(separator: ",") + "]")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Signs `payload` (the payload's bytes, normally JSON) and returns the compact JWS.
    public func sign(payload: [UInt8]) throws -> String {
        let signingInput =
            AppStoreCompactJWS.base64URLEncoded(Array(headerJSON.utf8)) + "."
            + AppStoreCompactJWS.base64URLEncoded(payload)
        let key = try OpenSSLPrivateKey(der: certificateAuthority.leafPrivateKeyDER)
        let derSignature = try key.signSHA256(Array(signingInput.utf8))
        let signature: [UInt8]
        switch options.signatureEncoding {
        case .raw: signature = try Self.rawSignature(fromDER: derSignature)
        case .der: signature = derSignature
        }
        return signingInput + "." + AppStoreCompactJWS.base64URLEncoded(signature)
    }

    /// Encodes `payload` as JSON and signs it.
    public func sign<Payload: Encodable>(_ payload: Payload) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try sign(payload: Array(encoder.encode(payload)))
    }

    /// Encodes `payload` as JSON, replaces the top-level members named in `rawFields` with the
    /// raw JSON text given (such as `9223372036854775807`, `1e300` or `"text"`, which no Swift
    /// value would encode), and signs the result: for boundary tests of what a verifier accepts.
    public func sign<Payload: Encodable>(_ payload: Payload, replacingFields rawFields: [String: String]) throws -> String {
        let encoded = try JSONEncoder().encode(payload)
        guard var object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] else {
            throw AppStoreSimulatorError("the payload does not encode as a JSON object")
        }
        for field in rawFields.keys { object.removeValue(forKey: field) }
        let rest = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        let members = rawFields.sorted { $0.key < $1.key }.map { "\(Self.jsonString($0.key)):\($0.value)" }
        let body = rest.dropFirst().dropLast()
        let json = "{" + (members + (body.isEmpty ? [] : [String(body)])).joined(separator: ",") + "}"
        return try sign(payload: Array(json.utf8))
    }

    /// Converts a DER `ECDSA-Sig-Value` into JOSE's fixed-size `r ‖ s`, each left-padded to 32 bytes.
    public static func rawSignature(fromDER der: [UInt8]) throws -> [UInt8] {
        guard let raw = AppStoreAPISigningKey.rawSignature(fromDER: der) else {
            throw AppStoreSimulatorError("the signature is not a DER ECDSA-Sig-Value of P-256 scalars")
        }
        return raw
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> String {
        let encoded = (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) }
        return encoded ?? "\"\""
    }
}

extension AppStoreJWSSigner {
    /// How a signer writes the header and the signature; the defaults follow Apple.
    public struct Options: Sendable, Hashable {
        /// The header's `alg`; nil leaves it out. Apple: `ES256`.
        public var algorithm: String?
        /// Which certificates go into `x5c`.
        public var certificates: Certificates
        /// How the signature is encoded.
        public var signatureEncoding: SignatureEncoding

        /// Options; the defaults give a JWS like Apple's.
        public init(
            algorithm: String? = "ES256", certificates: Certificates = .chain,
            signatureEncoding: SignatureEncoding = .raw
        ) {
            self.algorithm = algorithm
            self.certificates = certificates
            self.signatureEncoding = signatureEncoding
        }
    }

    /// Which certificates the header's `x5c` carries.
    public enum Certificates: Sendable, Hashable {
        /// Leaf, intermediate, root: what Apple sends.
        case chain
        /// No `x5c` member at all.
        case omitted
        /// These DER certificates, in this order (for example two, or four).
        case custom([[UInt8]])
    }

    /// How the ECDSA signature is written into the JWS.
    public enum SignatureEncoding: String, Sendable, Hashable, CaseIterable {
        /// JOSE's 64 bytes `r ‖ s` (RFC 7518 §3.4), as Apple writes it.
        case raw
        /// The ASN.1 DER `ECDSA-Sig-Value` OpenSSL produces, which JOSE forbids.
        case der
    }
}
