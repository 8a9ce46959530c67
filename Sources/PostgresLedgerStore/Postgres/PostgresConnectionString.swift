import CLibPQ

/// A libpq connection string: a `postgresql://` URI or `key=value` pairs, passed to libpq untouched
/// (TLS settings such as `sslmode` and `sslrootcert` included).
///
/// Its `description` is the redacted form, so printing or interpolating it never shows a password.
public struct PostgresConnectionString: Sendable, Hashable, CustomStringConvertible {
    /// The keywords whose values are secrets: the login password and the client key's passphrase.
    static let secretKeywords: Set<String> = ["password", "sslpassword"]
    /// The placeholder written instead of a secret.
    static let redactionMark = "***"
    /// Longest connection string accepted; libpq has no limit, this guards against pasted garbage.
    public static let byteCountMax = 8_192

    /// The text exactly as given; never print it (use `redactedDescription`).
    let rawValue: String

    /// Wraps `text`; it is parsed by libpq only when connecting (or for the redacted description).
    public init(_ text: String) {
        rawValue = text
    }

    /// Whether the text is a URI (`postgresql://` or `postgres://`).
    var isURI: Bool { rawValue.hasPrefix("postgresql://") || rawValue.hasPrefix("postgres://") }

    /// The connection parameters libpq reads from the text, or libpq's parse error.
    ///
    /// A text that is neither a URI nor holds `=` is what libpq takes as a bare database name.
    func parameters() -> Result<[(keyword: String, value: String)], ParseFailure> {
        guard isURI || rawValue.contains("=") else {
            return .success(rawValue.isEmpty ? [] : [("dbname", rawValue)])
        }
        var errorText: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(rawValue, &errorText) else {
            let message = errorText.map { String(cString: $0) } ?? "libpq could not parse it"
            PQfreemem(errorText)
            return .failure(ParseFailure(libpqMessage: message))
        }
        defer { PQconninfoFree(options) }
        var parameters: [(keyword: String, value: String)] = []
        var option = options
        // libpq ends the array with an entry whose keyword is NULL.
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parameters.append((String(cString: keyword), String(cString: value))) }
            option += 1
        }
        return .success(parameters)
    }

    /// A parse failure; its libpq message may quote a fragment of the text.
    struct ParseFailure: Error {
        let libpqMessage: String
    }

    /// The secret values the text holds (passwords), to scrub from any message.
    var secrets: [String] {
        guard case .success(let parameters) = parameters() else { return [] }
        return parameters.filter { Self.secretKeywords.contains($0.keyword) && !$0.value.isEmpty }.map(\.value)
    }

    /// Whether the unparsed text may hold a secret, judged without libpq: a password keyword (also
    /// percent-encoded, which is why any `%` counts) or a URI's `user:password@`.
    var mayHoldSecret: Bool {
        if rawValue.lowercased().contains("password") || rawValue.contains("%") { return true }
        guard isURI, let schemeEnd = rawValue.firstRange(of: "://") else { return false }
        let authority = rawValue[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return false }
        return authority[..<at].contains(":")
    }

    /// The connection parameters as `key=value` pairs in libpq's order, secrets replaced by `***`.
    /// For a text libpq cannot parse, a sentence saying so (with libpq's reason when the text holds
    /// no secret libpq could quote).
    public var redactedDescription: String {
        switch parameters() {
        case .success(let parameters):
            if parameters.isEmpty { return "(libpq defaults and PG* environment variables)" }
            return parameters.map { keyword, value in
                let shown = Self.secretKeywords.contains(keyword) ? Self.redactionMark : Self.quoted(value)
                return "\(keyword)=\(shown)"
            }.joined(separator: " ")
        case .failure(let failure):
            return "(an invalid connection string: \(parseFailureReason(failure)))"
        }
    }

    /// libpq's reason for refusing the text, withheld when it could quote a secret.
    func parseFailureReason(_ failure: ParseFailure) -> String {
        guard !mayHoldSecret else { return "libpq's reason is withheld because the text may hold a password" }
        return PostgresConnection.oneLine(failure.libpqMessage)
    }

    /// `description` is the redacted form.
    public var description: String { redactedDescription }

    /// `text` with every secret of this connection string replaced by `***`.
    func scrubbed(_ text: String) -> String {
        secrets.reduce(text) { result, secret in result.replacing(secret, with: Self.redactionMark) }
    }

    /// A value in libpq's `key=value` syntax: single-quoted with `\` escapes when it needs quoting.
    static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "'" || $0 == "\\" }
        guard needsQuotes else { return value }
        var text = "'"
        for character in value {
            if character == "'" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "'"
    }
}
