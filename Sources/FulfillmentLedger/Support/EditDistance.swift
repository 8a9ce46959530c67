/// How far apart two short words are, for "did you mean" hints: catalog field names, CLI
/// options and command names.
package enum EditDistance {
    /// Longest word compared; longer text is never a typo of a short name and costs more.
    package static let wordByteCountMax = 64
    /// Most edits for a word to count as a misspelling of another.
    package static let typoEditCountMax = 2

    /// The Levenshtein distance between `text` and `word`, ignoring case; nil when either is
    /// longer than `wordByteCountMax` or their lengths differ by more than `limit`.
    package static func distance(_ text: String, _ word: String, limit: Int = typoEditCountMax) -> Int? {
        let a = Array(text.lowercased().utf8)
        let b = Array(word.lowercased().utf8)
        guard a.count <= wordByteCountMax, b.count <= wordByteCountMax, abs(a.count - b.count) <= limit else {
            return nil
        }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Whether `text` looks like a misspelling of `word`: at most `typoEditCountMax` edits apart.
    package static func isTypo(_ text: String, of word: String) -> Bool {
        guard let distance = distance(text, word) else { return false }
        return distance <= typoEditCountMax
    }

    /// The candidate nearest to `text` within `typoEditCountMax` edits (the first in sorted order
    /// among equally near ones), or nil when none is near.
    package static func nearest(to text: String, in candidates: some Sequence<String>) -> String? {
        var best: (word: String, distance: Int)?
        for word in candidates.sorted() {
            guard let distance = distance(text, word), distance <= typoEditCountMax else { continue }
            if distance < best?.distance ?? Int.max { best = (word, distance) }
        }
        return best?.word
    }
}
