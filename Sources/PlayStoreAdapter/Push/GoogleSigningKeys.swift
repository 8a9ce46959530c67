import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Google's public signing keys for the OIDC tokens Pub/Sub sends, fetched over HTTPS (the
/// Play client's transport and bounded retries) and cached.
///
/// A fetched set is kept for the response's `Cache-Control: max-age` (`defaultCacheTTLSeconds`
/// when it has none), at most `cacheTTLSecondsMax`. A token naming a key the cached set lacks
/// triggers one early refetch, at most once per `refreshIntervalSecondsMin`, so forged key IDs
/// cannot make the server hammer Google. Concurrent callers share one fetch.
public actor GoogleSigningKeys: PubSubSigningKeySource {
    /// Google's key set for ID tokens.
    public static let defaultURL = URL(string: "https://www.googleapis.com/oauth2/v3/certs")!
    /// How long a set is kept when the response carries no `max-age`.
    public static let defaultCacheTTLSeconds: TimeInterval = 60 * 60
    /// The longest a set is kept, whatever `max-age` says.
    public static let cacheTTLSecondsMax: TimeInterval = 6 * 60 * 60
    /// The shortest time between two fetches asked for by unknown key IDs.
    public static let refreshIntervalSecondsMin: TimeInterval = 60

    private struct Cached: Sendable {
        var keys: JSONWebKeySet
        var fetchedAt: Date
        var expiresAt: Date
    }

    /// Where the set is fetched from.
    public let url: URL
    private let executor: RetryingHTTPExecutor
    private let clock: any LedgerClock
    private var cached: Cached?
    private var fetch: Task<Result<Cached, PlayAPIError>, Never>?
    /// Fetches sent so far (successful or not), for diagnostics and tests.
    public private(set) var fetchCount = 0

    /// Creates a source for `url` (Google's by default).
    public init(
        url: URL = defaultURL, transport: any HTTPTransport = URLSessionTransport(),
        retryPolicy: PlayRetryPolicy = PlayRetryPolicy(), clock: any LedgerClock = SystemClock(),
        sleep: @escaping PlayRetrySleep = PlayRetryPolicy.taskSleep
    ) {
        self.url = url
        executor = RetryingHTTPExecutor(transport: transport, policy: retryPolicy, clock: clock, sleep: sleep)
        self.clock = clock
    }

    /// The cached set while fresh (and, for `refresh`, younger than `refreshIntervalSecondsMin`),
    /// else a fetched one. A failed early refetch falls back to the still-fresh cached set.
    public func keySet(refresh: Bool) async throws(PlayAPIError) -> JSONWebKeySet {
        let now = clock.now()
        if let cached, now < cached.expiresAt,
            !refresh || now.timeIntervalSince(cached.fetchedAt) < Self.refreshIntervalSecondsMin
        {
            return cached.keys
        }
        let task: Task<Result<Cached, PlayAPIError>, Never>
        if let fetch {
            task = fetch
        } else {
            fetchCount += 1
            let (url, executor, clock) = (url, executor, clock)
            task = Task { await Self.fetch(url: url, executor: executor, clock: clock) }
            fetch = task
        }
        let result = await task.value
        if fetch == task { fetch = nil }
        switch result {
        case .success(let fetched):
            cached = fetched
            return fetched.keys
        case .failure(let error):
            if let cached, clock.now() < cached.expiresAt { return cached.keys }
            throw error
        }
    }

    private static func fetch(url: URL, executor: RetryingHTTPExecutor, clock: any LedgerClock) async
        -> Result<Cached, PlayAPIError>
    {
        do throws(PlayAPIError) {
            let requestedAt = clock.now()
            var request = URLRequest(url: url)
            request.httpMethod = "GET"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let response = try await executor.send(request, describedAs: "signing keys")
            guard (200..<300).contains(response.statusCode) else {
                throw PlayAPIError.permanent("signing keys: HTTP \(response.statusCode)")
            }
            let keys = try JSONWebKeySet(jsonData: response.body)
            let lifetime = min(maxAgeSeconds(response.headers["cache-control"]) ?? defaultCacheTTLSeconds, cacheTTLSecondsMax)
            return .success(Cached(keys: keys, fetchedAt: requestedAt, expiresAt: requestedAt.addingTimeInterval(lifetime)))
        } catch {
            return .failure(error)
        }
    }

    /// The `max-age` seconds of a `Cache-Control` header, if it has a well-formed one.
    package static func maxAgeSeconds(_ header: String?) -> TimeInterval? {
        guard let header else { return nil }
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 else {
                continue
            }
            return TimeInterval(seconds)
        }
        return nil
    }
}
