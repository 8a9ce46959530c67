/// What a `SignedDataVerifier` trusts and expects.
public struct AppStoreVerifierConfiguration: Sendable {
    /// The trusted root certificates, DER. In production: Apple Root CA - G3, downloaded from
    /// Apple's certificate authority page. Not consulted for `.xcode` and `.localTesting`.
    public var rootCertificates: [[UInt8]]
    /// The app's bundle ID that payloads must carry.
    public var bundleID: String
    /// The environment payloads must come from.
    public var environment: AppStoreEnvironment
    /// The app's Apple ID; required for `.production`, where notifications must carry it.
    public var appAppleID: Int64?
    /// How many verified certificate chains to remember; 0 turns the cache off.
    public var chainCacheCountMax: Int

    /// Creates a configuration.
    public init(
        rootCertificates: [[UInt8]], bundleID: String, environment: AppStoreEnvironment,
        appAppleID: Int64? = nil, chainCacheCountMax: Int = 128
    ) {
        self.rootCertificates = rootCertificates
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.chainCacheCountMax = chainCacheCountMax
    }
}
