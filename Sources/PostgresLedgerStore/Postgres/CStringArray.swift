/// NUL-terminated copies of optional strings, laid out as libpq's `const char *const *` arrays.
struct CStringArray: ~Copyable {
    private let pointers: [UnsafeMutablePointer<CChar>?]

    /// Copies `strings`; nil stays a NULL pointer (SQL NULL for parameters).
    init(_ strings: [String?]) {
        pointers = strings.map { string in
            string.map { text in
                let bytes = Array(text.utf8CString)
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
                copy.initialize(from: bytes, count: bytes.count)
                return copy
            }
        }
    }

    deinit {
        for pointer in pointers { pointer?.deallocate() }
    }

    /// Calls `body` with the array; the pointers are valid only during the call.
    func withPointers<R, E: Error>(_ body: ([UnsafePointer<CChar>?]) throws(E) -> R) throws(E) -> R {
        try body(pointers.map { $0.map { UnsafePointer($0) } })
    }
}
