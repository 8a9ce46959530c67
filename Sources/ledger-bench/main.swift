import Dispatch
import Foundation
import LedgerBench
import LedgerCommandLine
import Synchronization

// The executable only forwards to the library, so the bench is testable in-process.
//
// The main thread waits on a semaphore instead of `await`ing at top level: an async main parks
// the main thread in `dispatchMain`, and valgrind 3.19 stops with an internal error as soon as a
// thread starts after that, while the bench runs itself under callgrind to count instructions.
let code = Mutex<Int32>(1)
let finished = DispatchSemaphore(value: 0)
Task.detached {
    let status = await BenchCommand.main(Array(CommandLine.arguments.dropFirst()), io: .standard)
    code.withLock { $0 = status }
    finished.signal()
}
finished.wait()
exit(code.withLock { $0 })
