/// Comparisons of secrets (bearer tokens, webhook signatures) that take the same time wherever
/// two values first differ, so the time of an answer tells an attacker nothing.
package enum ConstantTime {
    /// Whether two byte strings are equal; only their lengths may leak.
    package static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
