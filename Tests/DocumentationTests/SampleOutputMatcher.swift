/// Whether a command's output is what a page shows, `…` standing for what varies.
///
/// Within a line, `…` matches any run of characters (none included); a line that is only `…`
/// matches any number of whole lines. Trailing spaces are ignored, since pages do not keep them
/// and table output pads its last column.
enum SampleOutputMatcher {
    /// The mask: one character, as pages write it.
    static let mask = "…"
    /// Most output lines compared; output longer than this must be abridged with a `…` line.
    static let lineCountMax = 2_000

    /// Whether `actual` is shown by `expected`.
    static func matches(expected: [String], actual: [String]) -> Bool {
        guard expected.count <= lineCountMax, actual.count <= lineCountMax else { return false }
        let expected = expected.map(trimmedTrailing)
        let actual = actual.map(trimmedTrailing)
        // reachable[j]: the expected lines read so far can stand for the first j actual lines.
        var reachable = [Bool](repeating: false, count: actual.count + 1)
        reachable[0] = true
        for pattern in expected {
            var next = [Bool](repeating: false, count: actual.count + 1)
            if pattern == mask {
                var any = false
                for index in 0...actual.count {
                    any = any || reachable[index]
                    next[index] = any
                }
            } else {
                for index in 0..<actual.count where reachable[index] && lineMatches(pattern: pattern, line: actual[index]) {
                    next[index + 1] = true
                }
            }
            reachable = next
        }
        return reachable[actual.count]
    }

    /// Whether one line is shown by one pattern line.
    static func lineMatches(pattern: String, line: String) -> Bool {
        let pieces = pattern.components(separatedBy: mask)
        guard pieces.count > 1 else { return pattern == line }
        var rest = Substring(line)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        let last = pieces[pieces.count - 1]
        return rest.count >= last.count && rest.hasSuffix(last)
    }

    private static func trimmedTrailing(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line = line.dropLast() }
        return String(line)
    }
}
