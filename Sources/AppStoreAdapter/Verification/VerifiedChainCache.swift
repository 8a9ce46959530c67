import Foundation

/// The DER bytes of an x5c chain, the key of a verified chain in the cache. The whole chain is
/// the key, so a known leaf with a different intermediate or root is verified afresh.
struct ChainCacheKey: Hashable, Sendable {
    /// DER of leaf, intermediate, root.
    let certificates: [[UInt8]]

    /// Hashes whole byte runs: the default hashes an array byte by byte, which was a visible
    /// share of a cached verification.
    func hash(into hasher: inout Hasher) {
        for certificate in certificates {
            hasher.combine(certificate.count)
            certificate.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

/// A bounded memory of verified chains that evicts the oldest insertion first, so repeated
/// verification of payloads signed by one leaf skips the X509_STORE work.
///
/// A hit still re-checks the date: a chain verified for one signedDate is reused only for dates
/// inside the interval in which all its certificates are valid.
struct VerifiedChainCache: Sendable {
    /// The most chains kept; 0 keeps none.
    let countMax: Int
    /// The chains by key.
    private var entries: [ChainCacheKey: TrustedChain] = [:]
    /// Keys in insertion order, used as a ring: `nextSlot` holds the oldest once full.
    private var slots: [ChainCacheKey?]
    /// The slot the next insertion takes.
    private var nextSlot = 0

    /// An empty cache for at most `countMax` chains.
    init(countMax: Int) {
        self.countMax = max(0, countMax)
        slots = Array(repeating: nil, count: self.countMax)
    }

    /// How many chains are cached.
    var count: Int { entries.count }

    /// The cached chain for `key` if it is valid at `date`.
    func chain(for key: ChainCacheKey, at date: Date) -> TrustedChain? {
        guard let chain = entries[key], chain.validity.contains(date) else { return nil }
        return chain
    }

    /// Remembers `chain`, evicting the oldest entry when full.
    mutating func insert(_ chain: TrustedChain, for key: ChainCacheKey) {
        guard countMax > 0 else { return }
        // Two threads may verify the same new chain at once: the second only refreshes it.
        if entries.updateValue(chain, forKey: key) != nil { return }
        if let evicted = slots[nextSlot] { entries[evicted] = nil }
        slots[nextSlot] = key
        nextSlot = (nextSlot + 1) % countMax
    }
}
