/// The thread that runs every HTTP transfer of the process: one `curl_multi_poll` loop.
///
/// Threads (CurlKit's part of the architecture's list): this one thread calls libcurl for all
/// transfers — options, the multi loop, pause and resume, removal — and runs libcurl's
/// callbacks, which copy into each transfer's buffer and deliver its events. Other threads
/// only touch a transfer's buffer under its lock and post commands to the loop, waking it
/// with `curl_multi_wakeup`, the one libcurl call they make.
///
/// Started lazily by the first transfer. `shared` is the process's one and lives as long as
/// the process.
public final class TransferThread: @unchecked Sendable {
    /// The process's transfer thread.
    public static let shared = TransferThread()

    let loop: TransferLoop

    init() { loop = TransferLoop() }

    // Only a thread nobody refers to any more gets here: every transfer holds its thread.
    deinit { loop.shutDown() }
}
