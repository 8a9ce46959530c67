/// What one file's writes and truncates since its last sync would leave on disk, kept in
/// memory so a simulated power loss can drop it.
///
/// The model: the real file holds exactly the synced state; this overlay holds the newer
/// state as non-overlapping byte extents plus the lowest truncate, and the logical size.
/// A byte at offset `p` reads as
/// - the newest extent covering `p`, else
/// - the real file's byte, if `p` is below the lowest truncate since the sync, else
/// - zero (truncated away, or a hole a later write or truncate opened up),
/// and offsets at or beyond `logicalSize` are past the end of the file.
///
/// Pure Swift with no SQLite in it, so its arithmetic is easy to reason about.
struct UnsyncedFile: Sendable {
    /// Bytes written at `offset`.
    struct Extent: Sendable {
        var offset: Int64
        var bytes: [UInt8]
        var end: Int64 { offset + Int64(bytes.count) }
    }

    /// Sorted by offset, never overlapping: a newer write replaces the overlapped parts.
    private(set) var extents: [Extent] = []
    /// The lowest size the file was truncated to since the last sync; real bytes at or
    /// beyond it are gone.
    private(set) var truncatedTo: Int64?
    /// The file's size as SQLite sees it.
    private(set) var logicalSize: Int64
    /// Bytes held in `extents`; counted against the VFS's buffer limit.
    private(set) var byteCount = 0

    /// Starts an overlay over a real file of `realSize` bytes.
    init(realSize: Int64) {
        logicalSize = realSize
    }

    /// Records a write; returns the change in buffered bytes.
    @discardableResult
    mutating func write(_ bytes: [UInt8], at offset: Int64) -> Int {
        // A zero-length write changes nothing, and an empty extent would only get in the way.
        guard !bytes.isEmpty else { return 0 }
        let before = byteCount
        let end = offset + Int64(bytes.count)
        removeRange(from: offset, to: end)
        let index = firstIndex(endingAfter: offset)
        extents.insert(Extent(offset: offset, bytes: bytes), at: index)
        byteCount += bytes.count
        logicalSize = max(logicalSize, end)
        return byteCount - before
    }

    /// Records a truncate (which may also grow the file); returns the change in buffered bytes.
    @discardableResult
    mutating func truncate(to size: Int64) -> Int {
        let before = byteCount
        removeRange(from: size, to: Int64.max)
        truncatedTo = min(truncatedTo ?? size, size)
        logicalSize = size
        return byteCount - before
    }

    /// The part of `[offset, offset + count)` that must come from the real file.
    func realRange(offset: Int64, count: Int) -> Range<Int64>? {
        let upper = min(offset + Int64(count), truncatedTo ?? Int64.max)
        return upper > offset ? offset..<upper : nil
    }

    /// Copies every extent byte inside `[offset, offset + buffer.count)` into `buffer`,
    /// which already holds the real file's bytes (zeros elsewhere).
    func overlay(into buffer: UnsafeMutableRawBufferPointer, offset: Int64) {
        let end = offset + Int64(buffer.count)
        var index = firstIndex(endingAfter: offset)
        while index < extents.count, extents[index].offset < end {
            let extent = extents[index]
            let from = max(extent.offset, offset)
            let to = min(extent.end, end)
            extent.bytes.withUnsafeBytes { source in
                let slice = UnsafeRawBufferPointer(
                    rebasing: source[Int(from - extent.offset)..<Int(to - extent.offset)])
                UnsafeMutableRawBufferPointer(rebasing: buffer[Int(from - offset)..<Int(to - offset)])
                    .copyMemory(from: slice)
            }
            index += 1
        }
    }

    /// Index of the first extent whose end is beyond `offset` (binary search: a WAL between
    /// syncs can hold thousands of frames).
    private func firstIndex(endingAfter offset: Int64) -> Int {
        var low = 0
        var high = extents.count
        while low < high {
            let middle = (low + high) / 2
            if extents[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Cuts `[from, to)` out of every extent, keeping the parts on either side.
    private mutating func removeRange(from: Int64, to: Int64) {
        var index = firstIndex(endingAfter: from)
        while index < extents.count, extents[index].offset < to {
            let extent = extents[index]
            var pieces: [Extent] = []
            if extent.offset < from {
                pieces.append(Extent(offset: extent.offset, bytes: Array(extent.bytes[..<Int(from - extent.offset)])))
            }
            if extent.end > to {
                pieces.append(Extent(offset: to, bytes: Array(extent.bytes[Int(to - extent.offset)...])))
            }
            byteCount -= extent.bytes.count - pieces.reduce(0) { $0 + $1.bytes.count }
            extents.replaceSubrange(index...index, with: pieces)
            index += pieces.count
            // Only a right-hand piece can follow `to`; stop there rather than re-examine it.
            if extent.end > to { break }
        }
    }
}
