import COpenSSL
import Foundation

/// A throwaway certificate chain shaped like Apple's App Store signing chain: a self-signed
/// P-256 root, an intermediate marked with Apple's WWDR OID, and a receipt-signing leaf
/// marked with Apple's leaf OID. `Options` breaks it on purpose so tests can check that a
/// verifier refuses each defect.
///
/// Generation uses OpenSSL; the result holds only DER bytes, so it is a plain `Sendable` value.
public struct AppStoreTestCertificateAuthority: Sendable, Hashable {
    /// Apple's marker of the WWDR intermediate certificate authority.
    public static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Apple's marker of the App Store receipt-signing leaf certificate.
    public static let leafMarkerOID = "1.2.840.113635.100.6.11.1"
    /// The default validity of every certificate: 2000-01-01 through 2049-12-31 UTC, so any
    /// date a test is likely to sign at lies inside it.
    public static let defaultValidity =
        Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 2_524_607_999)

    /// The root certificate (self-signed CA), DER; the verifier's trust anchor.
    public let rootCertificateDER: [UInt8]
    /// The intermediate certificate, DER.
    public let intermediateCertificateDER: [UInt8]
    /// The leaf (signing) certificate, DER.
    public let leafCertificateDER: [UInt8]
    /// The leaf's P-256 private key, DER (SEC 1), which signs JWS payloads.
    public let leafPrivateKeyDER: [UInt8]
    /// The options the chain was generated with.
    public let options: Options

    /// The certificates in `x5c` order: leaf, intermediate, root.
    public var certificateChainDER: [[UInt8]] { [leafCertificateDER, intermediateCertificateDER, rootCertificateDER] }

    /// Generates a new chain with fresh keys.
    public init(options: Options = Options()) throws {
        self.options = options
        let prefix = options.commonNamePrefix
        let rootKey = try OpenSSLPrivateKey.generateP256()
        let root = try OpenSSLCertificate(
            serial: Self.randomSerial(), commonName: "\(prefix) Root CA - G3", validity: options.validity,
            publicKey: rootKey)
        try root.addExtension(nid: NID_basic_constraints, value: "critical,CA:TRUE", issuer: nil)
        try root.addExtension(nid: NID_key_usage, value: "critical,keyCertSign,cRLSign", issuer: nil)
        try root.addExtension(nid: NID_subject_key_identifier, value: "hash", issuer: nil)
        try root.sign(with: rootKey)

        let intermediateKey = try OpenSSLPrivateKey.generateP256()
        let intermediate = try OpenSSLCertificate(
            serial: Self.randomSerial(), commonName: "\(prefix) Worldwide Developer Relations CA - G6",
            validity: options.validity, publicKey: intermediateKey)
        try intermediate.setIssuer(root)
        let intermediateConstraints =
            options.intermediateIsCertificateAuthority ? "critical,CA:TRUE,pathlen:0" : "critical,CA:FALSE"
        try intermediate.addExtension(nid: NID_basic_constraints, value: intermediateConstraints, issuer: root)
        try intermediate.addExtension(nid: NID_key_usage, value: "critical,keyCertSign,cRLSign", issuer: root)
        try intermediate.addExtension(nid: NID_subject_key_identifier, value: "hash", issuer: root)
        try intermediate.addExtension(nid: NID_authority_key_identifier, value: "keyid:always", issuer: root)
        if options.intermediateHasMarker {
            try intermediate.addMarkerExtension(oid: Self.intermediateMarkerOID)
        }
        try intermediate.sign(with: rootKey)

        let leafKey = try OpenSSLPrivateKey.generateP256()
        let leaf = try OpenSSLCertificate(
            serial: Self.randomSerial(), commonName: "\(prefix) App Store Receipt Signing",
            validity: options.leafValidity ?? options.validity, publicKey: leafKey)
        let leafIssuer = options.leafSignedByRoot ? root : intermediate
        try leaf.setIssuer(leafIssuer)
        try leaf.addExtension(nid: NID_basic_constraints, value: "critical,CA:FALSE", issuer: leafIssuer)
        if !options.leafKeyUsage.isEmpty {
            try leaf.addExtension(
                nid: NID_key_usage, value: "critical," + options.leafKeyUsage.configurationNames, issuer: leafIssuer)
        }
        try leaf.addExtension(nid: NID_subject_key_identifier, value: "hash", issuer: leafIssuer)
        try leaf.addExtension(nid: NID_authority_key_identifier, value: "keyid:always", issuer: leafIssuer)
        if options.leafHasMarker {
            try leaf.addMarkerExtension(oid: Self.leafMarkerOID)
        }
        try leaf.sign(with: options.leafSignedByRoot ? rootKey : intermediateKey)

        rootCertificateDER = try root.derBytes()
        intermediateCertificateDER = try intermediate.derBytes()
        leafCertificateDER = try leaf.derBytes()
        leafPrivateKeyDER = try leafKey.derBytes()
    }

    /// Generates a chain with one `defect`, judged at `signingDate` (the date payloads will be
    /// signed at, which only matters for the validity defects).
    public init(defect: Defect, signingDate: Date = Date()) throws {
        try self.init(options: defect.options(signingDate: signingDate))
    }

    /// A positive serial number that fits OpenSSL's `long`.
    private static func randomSerial() -> Int {
        Int.random(in: 1...Int(Int32.max))
    }
}

extension AppStoreTestCertificateAuthority {
    /// How to generate a chain; the defaults give a chain a correct verifier accepts.
    public struct Options: Sendable, Hashable {
        /// Validity of the root and the intermediate, and of the leaf unless `leafValidity` is set.
        public var validity: ClosedRange<Date>
        /// Validity of the leaf, when it differs from `validity`.
        public var leafValidity: ClosedRange<Date>?
        /// Whether the leaf carries OID 1.2.840.113635.100.6.11.1.
        public var leafHasMarker: Bool
        /// Whether the intermediate carries OID 1.2.840.113635.100.6.2.1.
        public var intermediateHasMarker: Bool
        /// Whether the intermediate says `CA:TRUE`; false writes `CA:FALSE`.
        public var intermediateIsCertificateAuthority: Bool
        /// The leaf's key usage; empty leaves the extension out.
        public var leafKeyUsage: KeyUsage
        /// Whether the root signs the leaf directly (the leaf then names the root as its issuer);
        /// the intermediate is still generated and still sent in `x5c`.
        public var leafSignedByRoot: Bool
        /// Start of every certificate's common name, so a test chain is never mistaken for Apple's.
        public var commonNamePrefix: String

        /// Options; the defaults give a valid chain.
        public init(
            validity: ClosedRange<Date> = AppStoreTestCertificateAuthority.defaultValidity,
            leafValidity: ClosedRange<Date>? = nil, leafHasMarker: Bool = true, intermediateHasMarker: Bool = true,
            intermediateIsCertificateAuthority: Bool = true, leafKeyUsage: KeyUsage = .digitalSignature,
            leafSignedByRoot: Bool = false, commonNamePrefix: String = "FulfillmentLedger Test"
        ) {
            self.validity = validity
            self.leafValidity = leafValidity
            self.leafHasMarker = leafHasMarker
            self.intermediateHasMarker = intermediateHasMarker
            self.intermediateIsCertificateAuthority = intermediateIsCertificateAuthority
            self.leafKeyUsage = leafKeyUsage
            self.leafSignedByRoot = leafSignedByRoot
            self.commonNamePrefix = commonNamePrefix
        }
    }

    /// The X.509 key usages the leaf may be given.
    public struct KeyUsage: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: UInt8

        /// Wraps bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `digitalSignature`, which Apple's leaf has and a verifier requires.
        public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
        /// `keyCertSign`, a CA's usage.
        public static let keyCertSign = KeyUsage(rawValue: 1 << 1)
        /// `cRLSign`, a CA's usage.
        public static let cRLSign = KeyUsage(rawValue: 1 << 2)

        /// The usages in OpenSSL's configuration syntax, comma-separated.
        var configurationNames: String {
            let names: [(KeyUsage, String)] = [
                (.digitalSignature, "digitalSignature"), (.keyCertSign, "keyCertSign"), (.cRLSign, "cRLSign"),
            ]
            return names.filter { contains($0.0) }.map(\.1).joined(separator: ",")
        }
    }

    /// One thing wrong with a chain, for tests that expect a verifier to refuse it.
    public enum Defect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The leaf lacks OID 1.2.840.113635.100.6.11.1.
        case leafWithoutMarker
        /// The intermediate lacks OID 1.2.840.113635.100.6.2.1.
        case intermediateWithoutMarker
        /// The leaf's validity ended before the signing date.
        case leafExpired
        /// The leaf's validity starts after the signing date.
        case leafNotYetValid
        /// The leaf may sign certificates (`keyCertSign`) but not data (`digitalSignature`).
        case leafWrongKeyUsage
        /// The root signed the leaf; the intermediate is sent but is not the leaf's issuer.
        case leafSignedByRoot
        /// The intermediate says `CA:FALSE`.
        case intermediateNotCertificateAuthority

        /// The case name.
        public var description: String { rawValue }

        /// Options that produce this defect for payloads signed at `signingDate`.
        public func options(signingDate: Date) -> Options {
            let day: TimeInterval = 86_400
            var options = Options()
            switch self {
            case .leafWithoutMarker: options.leafHasMarker = false
            case .intermediateWithoutMarker: options.intermediateHasMarker = false
            case .leafExpired:
                options.leafValidity = signingDate.addingTimeInterval(-400 * day)...signingDate.addingTimeInterval(-day)
            case .leafNotYetValid:
                options.leafValidity = signingDate.addingTimeInterval(day)...signingDate.addingTimeInterval(400 * day)
            case .leafWrongKeyUsage: options.leafKeyUsage = .keyCertSign
            case .leafSignedByRoot: options.leafSignedByRoot = true
            case .intermediateNotCertificateAuthority: options.intermediateIsCertificateAuthority = false
            }
            return options
        }
    }
}
