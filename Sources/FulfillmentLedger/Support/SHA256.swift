/// SHA-256 as specified in FIPS 180-4, written out here so the catalog's version hash needs no outside package.
public enum SHA256 {
    /// The digest length in bytes.
    private static let digestByteCount = 32
    /// The length of one message block in bytes.
    private static let blockByteCount = 64

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var state = initialState
        var schedule = [UInt32](repeating: 0, count: 64)
        let wholeBlockCount = bytes.count / blockByteCount
        for blockIndex in 0..<wholeBlockCount {
            compress(&state, block: bytes[(blockIndex * blockByteCount)...], schedule: &schedule)
        }
        // Only the tail is copied for padding, so hashing a large input does not duplicate it.
        let tail = paddedTail(of: bytes, from: wholeBlockCount * blockByteCount)
        for blockStart in stride(from: 0, to: tail.count, by: blockByteCount) {
            compress(&state, block: tail[blockStart...], schedule: &schedule)
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(digestByteCount)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Returns the SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hexDigest(_ bytes: [UInt8]) -> String { hex(hash(bytes)) }

    /// `bytes` as lowercase hexadecimal, two digits a byte: how digests and MACs are written.
    package static func hex(_ bytes: [UInt8]) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes after the last whole block, followed by the padding and the 64-bit message length in bits.
    private static func paddedTail(of bytes: [UInt8], from tailStart: Int) -> [UInt8] {
        var tail = Array(bytes[tailStart...])
        tail.append(0x80)
        // The length field takes the last 8 bytes of a block, so zeros fill up to 56 bytes past a boundary.
        while tail.count % blockByteCount != blockByteCount - 8 {
            tail.append(0)
        }
        let bitCount = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        return tail
    }

    /// Mixes one 64-byte block, starting at `block.startIndex`, into `state`.
    ///
    /// `schedule` is passed in so that its storage is allocated once per message rather than once per block.
    private static func compress(_ state: inout [UInt32], block: ArraySlice<UInt8>, schedule: inout [UInt32]) {
        let base = block.startIndex
        for t in 0..<16 {
            let i = base + t * 4
            schedule[t] = UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16 | UInt32(block[i + 2]) << 8
                | UInt32(block[i + 3])
        }
        for t in 16..<64 {
            let w15 = schedule[t - 15]
            let w2 = schedule[t - 2]
            let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >> 3)
            let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >> 10)
            schedule[t] = schedule[t - 16] &+ sigma0 &+ schedule[t - 7] &+ sigma1
        }
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ roundConstants[t] &+ schedule[t]
            let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            (h, g, f, e) = (g, f, e, d &+ temp1)
            (d, c, b, a) = (c, b, a, temp1 &+ temp2)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private static func rotateRight(_ word: UInt32, _ count: UInt32) -> UInt32 {
        (word >> count) | (word << (32 - count))
    }

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
