import DBusKit
import Dispatch
import Glibc

/// logind's two sleep features, each on its own setting:
/// - `pauseBeforeSleep` (pause-before-sleep): holds a logind "delay" inhibitor while nothing
///   happens, and on `PrepareForSleep(true)` lets the player pause, then releases it so the
///   suspend goes on (logind waits for delay inhibitors, at most InhibitDelayMaxSec). No
///   automatic resume.
/// - `keepAwake` (inhibit-sleep-while-playing, decided by PlayerCore's policy): a "block"
///   inhibitor while playing, so an idle machine does not suspend under the music.
///
/// Either can be turned on or off while running (SIGHUP). Without a system bus (a container,
/// CI) both are off, said once in the log.
final class SleepWatcher {
    private static let logind = "org.freedesktop.login1"
    private static let managerPath = "/org/freedesktop/login1"
    private static let managerInterface = "org.freedesktop.login1.Manager"

    private let queue: DispatchQueue
    private let onSleep: () -> Void
    private var connection: Connection?
    /// The inhibitor lock: logind keeps the delay as long as this descriptor is open.
    private var inhibitor: Int32?

    /// Whether to pause before sleep (and so hold the delay inhibitor); may change any time.
    var pauseBeforeSleep: Bool {
        didSet {
            guard pauseBeforeSleep != oldValue else { return }
            if pauseBeforeSleep { takeInhibitor() } else { releaseInhibitor() }
        }
    }

    init(queue: DispatchQueue, pauseBeforeSleep: Bool, onSleep: @escaping () -> Void) {
        self.queue = queue
        self.pauseBeforeSleep = pauseBeforeSleep
        self.onSleep = onSleep
    }

    deinit {
        releaseInhibitor()
        if let blocker { close(blocker) }
    }

    /// Connects to the system bus, unless connected already.
    func start() {
        guard connection == nil else { return }
        do {
            let connection = try Connection(bus: .system, queue: queue)
            try connection.addMatch("type='signal',sender='\(Self.logind)',interface='\(Self.managerInterface)',member='PrepareForSleep'")
            connection.onSignal = { [weak self] message in self?.receive(message) }
            connection.onDisconnect = { [weak self] in
                Log.warning("lost the system bus: pausing before sleep is off, and so is the sleep inhibitor while playing")
                self?.connection = nil
            }
            self.connection = connection
            if pauseBeforeSleep { takeInhibitor() }
            if wantsBlock { keepAwake(true) }
        } catch {
            Log.notice("no system bus (\(error.message)): pausing before sleep is off, and so is the sleep inhibitor while playing")
        }
    }

    private func receive(_ message: Message) {
        guard message.member == "PrepareForSleep", case .boolean(let goingToSleep)? = try? message.arguments().first
        else { return }
        if goingToSleep {
            guard pauseBeforeSleep else { return Log.info("the system is going to sleep (pause-before-sleep is off)") }
            Log.info("the system is going to sleep: pausing")
            onSleep()
        } else {
            Log.info("the system woke up")
            if pauseBeforeSleep { takeInhibitor() }
        }
    }

    /// While playing, a "block" inhibitor keeps the machine from suspending on idle (a
    /// person's explicit suspend still goes through logind's delay path above).
    private var blocker: Int32?
    private var wantsBlock = false

    func keepAwake(_ awake: Bool) {
        wantsBlock = awake
        if awake {
            guard blocker == nil else { return }
            inhibit(mode: "block", why: "Playing music") { [weak self] descriptor in
                guard let self, self.wantsBlock, self.blocker == nil else { close(descriptor); return }
                self.blocker = descriptor
            }
        } else if let blocker {
            close(blocker)
            self.blocker = nil
        }
    }

    /// Called once the player has paused for sleep.
    func readyForSleep() {
        releaseInhibitor()
    }

    private func takeInhibitor() {
        guard inhibitor == nil else { return }
        inhibit(mode: "delay", why: "Pause the music before sleep") { [weak self] descriptor in
            guard let self, self.pauseBeforeSleep, self.inhibitor == nil else { close(descriptor); return }
            self.inhibitor = descriptor
        }
    }

    /// logind's Inhibit("sleep", "Aubade", why, mode); `got` receives the lock's descriptor.
    private func inhibit(mode: String, why: String, got: @escaping (Int32) -> Void) {
        guard let connection else { return }
        do {
            let call = try Message.methodCall(
                destination: Self.logind, path: Self.managerPath, interface: Self.managerInterface, member: "Inhibit",
                arguments: [.string("sleep"), .string("Aubade"), .string(why), .string(mode)])
            try connection.call(call, timeoutMilliseconds: 5_000) { result in
                switch result {
                case .success(let reply):
                    // takeUnixFD: the descriptor is ours now (arguments() opens none).
                    guard let descriptor = try? reply.takeUnixFD(at: 0) else {
                        Log.warning("logind's Inhibit answered without a descriptor")
                        return
                    }
                    got(descriptor)
                case .failure(let error):
                    Log.notice("no \(mode) sleep inhibitor from logind (\(error.message))")
                }
            }
        } catch {
            Log.notice("no \(mode) sleep inhibitor from logind (\(error.message))")
        }
    }

    private func releaseInhibitor() {
        if let inhibitor { close(inhibitor) }
        inhibitor = nil
    }
}
