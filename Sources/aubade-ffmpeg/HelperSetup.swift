internal import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// The helper's process set-up: only its socket open, memory and files bounded, gone with
/// the daemon.
enum HelperSetup {
    static let channelDescriptor: Int32 = 3

    /// Address space allowed: FFmpeg's libraries take about 300 MB of it mapped (not resident);
    /// the rest is what decoding may use. A runaway allocation fails here, never the machine.
    static let addressSpaceLimit: rlim_t = 1024 * 1024 * 1024

    static func isSocket(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    static func prepare() {
        // Whatever else the daemon had open (the bus, the sound server, files) is not ours.
        closeDescriptors(from: channelDescriptor + 1)
        // A daemon that dies (kill -9) takes its helpers along.
        _ = aubade_die_with_parent()
        if getppid() == 1 { exit(0) }
        // A sanitizer's shadow memory takes terabytes of address space: under ASan or TSan the
        // daemon's watch on resident memory (and the sanitizer's hard_rss_limit_mb) bound it.
        if !isSanitized { limit(RLIMIT_AS, addressSpaceLimit) }
        // No core files of hostile input, no files written at all, few descriptors.
        limit(RLIMIT_CORE, 0)
        limit(RLIMIT_FSIZE, 0)
        limit(RLIMIT_NOFILE, 64)
        signal(SIGPIPE, SIG_IGN)
        // The Swift runtime's crash handler (a backtrace, written with the help of another
        // process) is for programs a person runs: a helper that faults just dies, at once,
        // and the daemon says so.
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT] { signal(fault, SIG_DFL) }
        // Below the daemon: decoding ahead is never more urgent than answering the bus.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    }

    /// Built with --sanitize=address or thread (the tests' sanitizer runs).
    static var isSanitized: Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
            || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    }

    private static func limit(_ resource: __rlimit_resource, _ value: rlim_t) {
        let which = __rlimit_resource_t(resource.rawValue)
        var current = rlimit()
        getrlimit(which, &current)
        let bounded = min(value, current.rlim_max)
        var new = rlimit(rlim_cur: bounded, rlim_max: bounded)
        _ = setrlimit(which, &new)
    }

    private static func closeDescriptors(from first: Int32) {
        // close_range(2) (Linux 5.9); else one by one up to the limit.
        if aubade_close_from(UInt32(first)) == 0 { return }
        var limits = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits)
        let last = Int32(clamping: min(limits.rlim_cur, 65_536))
        guard first < last else { return }
        for descriptor in first..<last { close(descriptor) }
    }
}

/// A fault the tests ask for (`AUBADE_FFMPEG_TEST_FAULT`): `allocate:BYTES` makes the helper
/// allocate without end once it has sent BYTES of PCM, as a decoder gone wild on a hostile
/// file would. Nothing else reads the variable.
struct HelperFault {
    var allocateAfterBytes: Int?

    init(environment value: String?) {
        guard let value, value.hasPrefix("allocate:"), let bytes = Int(value.dropFirst("allocate:".count)) else { return }
        allocateAfterBytes = bytes
    }

    func check(sentBytes: Int) {
        guard let limit = allocateAfterBytes, sentBytes >= limit else { return }
        // Touched, so it is resident: until the address-space limit makes malloc fail.
        var blocks: [UnsafeMutableRawPointer] = []
        while true {
            guard let block = malloc(1 << 20) else { fatalError("aubade-ffmpeg: out of memory (test fault)") }
            memset(block, 1, 1 << 20)
            blocks.append(block)
        }
    }
}
