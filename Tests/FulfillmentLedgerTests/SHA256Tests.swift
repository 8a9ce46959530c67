import FulfillmentLedger
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "FIPS 180-2 and NIST example messages",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                    + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func nistVectors(message: String, expectedHex: String) {
        #expect(SHA256.hexDigest(Array(message.utf8)) == expectedHex)
    }

    @Test("one million repetitions of \"a\"")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // Lengths around 55, 56 and 64 bytes are where the padding needs one block or spills into a second,
    // the classic place for an off-by-one. Expected values come from Python's hashlib.
    @Test(
        "lengths around the padding boundaries",
        arguments: [
            (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
            (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
            (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
            (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
            (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
            (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
            (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
            (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
        ])
    func paddingBoundaries(byteCount: Int, expectedHex: String) {
        let message = (0..<byteCount).map { UInt8($0 % 251) }
        #expect(SHA256.hexDigest(message) == expectedHex)
    }

    @Test("hash returns the 32 raw bytes that hexDigest spells out")
    func rawDigestMatchesHex() {
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(digest.count == 32)
        #expect(digest.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        #expect(digest.suffix(4) == [0xf2, 0x00, 0x15, 0xad])
        let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == SHA256.hexDigest(Array("abc".utf8)))
    }
}
