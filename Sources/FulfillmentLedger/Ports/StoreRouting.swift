/// A verifier that sends each submission to the verifier of its store, so one ledger
/// serves the App Store, Google Play and the test store at once.
public struct StoreRoutingVerifier: TransactionVerifier {
    /// The verifier of each store.
    public let verifiers: [PlatformStore: any TransactionVerifier]

    /// Routes by store.
    public init(_ verifiers: [PlatformStore: any TransactionVerifier]) { self.verifiers = verifiers }

    /// The environments every routed verifier can vouch for. A production ledger then
    /// refuses a routing that includes a sandbox-only verifier such as the test store's.
    public var supportedEnvironments: Set<StoreEnvironment> {
        let sets = verifiers.values.map(\.supportedEnvironments)
        guard let first = sets.first else { return [] }
        return sets.dropFirst().reduce(first) { $0.intersection($1) }
    }

    /// The store's verifier's verdict; a store with no verifier is invalid.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        guard let verifier = verifiers[submission.store] else {
            return .invalid(reason: "no verifier is configured for store \(submission.store)")
        }
        return try await verifier.verify(submission)
    }
}

/// A finisher that sends each finish to the finisher of its store.
public struct StoreRoutingFinisher: PlatformFinisher {
    /// The finisher of each store.
    public let finishers: [PlatformStore: any PlatformFinisher]

    /// Routes by store.
    public init(_ finishers: [PlatformStore: any PlatformFinisher]) { self.finishers = finishers }

    /// Finishes through the store's finisher; a store with none fails, so the finish stays pending.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {
        guard let finisher = finishers[request.key.store] else {
            throw LedgerError.finishFailed("no finisher is configured for store \(request.key.store)")
        }
        try await finisher.finish(request)
    }
}
