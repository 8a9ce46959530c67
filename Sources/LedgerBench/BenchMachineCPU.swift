import Foundation

/// How busy the whole machine's processors were over an interval, from Linux's `/proc/stat`:
/// with every core busy a run is bound by the processors, not by the disk or the server's locks,
/// which is what a target on scaling across processes needs to know.
struct BenchMachineCPU {
    /// Bytes of `/proc/stat` read at most; its first line, the machine's totals, comes first.
    static let statByteCountMax = 4096

    /// Clock ticks spent busy and in all, since boot.
    var busyTicks: Int64
    var totalTicks: Int64

    /// The machine's totals now, or nil where `/proc/stat` cannot be read (not Linux).
    static func now() -> BenchMachineCPU? {
        #if os(Linux)
            guard let text = readProcFile("/proc/stat", byteCountMax: statByteCountMax) else { return nil }
            let firstLine = text.prefix { $0 != "\n" }
            // cpu user nice system idle iowait irq softirq steal ...
            let fields = firstLine.split(separator: " ").dropFirst().compactMap { Int64($0) }
            guard fields.count >= 5 else { return nil }
            let total = fields.prefix(8).reduce(0, +)
            return BenchMachineCPU(busyTicks: total - fields[3] - fields[4], totalTicks: total)
        #else
            return nil
        #endif
    }

    /// The fraction of the machine's processor time that was busy from `start` to `self`.
    func busyFraction(since start: BenchMachineCPU) -> Double {
        let total = totalTicks - start.totalTicks
        guard total > 0 else { return 0 }
        return Double(busyTicks - start.busyTicks) / Double(total)
    }
}
