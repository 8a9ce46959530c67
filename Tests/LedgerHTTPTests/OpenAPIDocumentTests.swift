import Foundation
import LedgerHTTP
import Testing

/// Docs/openapi.json is the contract of `ledger serve`: the text built into the server is the
/// file's, byte for byte, and the document and the server's routes name the same paths with the
/// same methods. (CI also validates it with openapi-spec-validator and runs schemathesis against
/// a live server: Scripts/openapi-check.)
@Suite struct OpenAPIDocumentTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent(LedgerOpenAPIDocument.path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theBuiltInTextIsTheFile() throws {
        let file = try String(contentsOf: Self.packageRoot.appendingPathComponent(LedgerOpenAPIDocument.path), encoding: .utf8)
        #expect(LedgerOpenAPIDocument.text == file, "run Scripts/openapi-build after changing the document")
        #expect(try Self.document()["openapi"] as? String == "3.1.0")
    }

    @Test func theDocumentAndTheServerNameTheSameRoutes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        var documented: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
                let segments = path.split(separator: "/").map { $0 == "{playerID}" ? "p" : String($0) }
                let route = try #require(LedgerHTTPRoute(segments), "\(path) is no route of the server")
                #expect(route.template == path && route.method == method.uppercased(), "\(method) \(path)")
            }
        }
        let served = Set(LedgerHTTPRoute.every.map { "\($0.method) \($0.template)" })
        #expect(documented == served)
        #expect(served.count == 26)
    }

    @Test func everyOperationDocumentsItsErrorsWithTheOneErrorBody() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        for (path, item) in paths {
            for (method, operation) in item {
                let responses = try #require(operation["responses"] as? [String: [String: Any]])
                #expect(responses["405"] != nil, "\(method) \(path) documents 405")
                for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                    let content = response["content"] as? [String: [String: Any]]
                    let schema = content?["application/json"]?["schema"] as? [String: Any]
                    let named = schema?["$ref"] as? String ?? ""
                    let alternatives = (schema?["oneOf"] as? [[String: Any]])?.compactMap { $0["$ref"] as? String } ?? []
                    #expect(
                        named.hasSuffix("/ErrorBody") || alternatives.contains { $0.hasSuffix("/ErrorBody") }
                            || named.hasSuffix("Outcome"),
                        "\(method) \(path) \(status): an error body or an outcome")
                }
            }
        }
    }

    @Test func theServerServesTheDocument() async throws {
        let fixture = try LedgerHTTPFixture()
        let answer = try await fixture.send("GET", "/openapi.json")
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == LedgerOpenAPIDocument.text)
    }
}
