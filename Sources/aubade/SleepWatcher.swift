import DBusKit
import Dispatch
import Glibc

/// Pauses before the system sleeps: holds a logind "delay" inhibitor while nothing happens,
/// and on `PrepareForSleep(true)` lets the player pause, then releases it so the suspend goes
/// on (logind waits for delay inhibitors, at most InhibitDelayMaxSec). No automatic resume.
///
/// Without a system bus (a container, CI) the feature is off, said once in the log.
final class SleepWatcher {
    private static let logind = "org.freedesktop.login1"
    private static let managerPath = "/org/freedesktop/login1"
    private static let managerInterface = "org.freedesktop.login1.Manager"

    private let queue: DispatchQueue
    private let onSleep: () -> Void
    private var connection: Connection?
    /// The inhibitor lock: logind keeps the delay as long as this descriptor is open.
    private var inhibitor: Int32?

    init(queue: DispatchQueue, onSleep: @escaping () -> Void) {
        self.queue = queue
        self.onSleep = onSleep
    }

    deinit { releaseInhibitor() }

    func start() {
        do {
            let connection = try Connection(bus: .system, queue: queue)
            try connection.addMatch("type='signal',sender='\(Self.logind)',interface='\(Self.managerInterface)',member='PrepareForSleep'")
            connection.onSignal = { [weak self] message in self?.receive(message) }
            connection.onDisconnect = { [weak self] in
                Log.warning("lost the system bus: pausing before sleep is off")
                self?.connection = nil
            }
            self.connection = connection
            takeInhibitor()
        } catch {
            Log.notice("no system bus (\(error.message)): pausing before sleep is off")
        }
    }

    private func receive(_ message: Message) {
        guard message.member == "PrepareForSleep", case .boolean(let goingToSleep)? = try? message.arguments().first
        else { return }
        if goingToSleep {
            Log.info("the system is going to sleep: pausing")
            onSleep()
        } else {
            Log.info("the system woke up")
            takeInhibitor()
        }
    }

    /// Called once the player has paused for sleep.
    func readyForSleep() {
        releaseInhibitor()
    }

    private func takeInhibitor() {
        guard let connection, inhibitor == nil else { return }
        do {
            let call = try Message.methodCall(
                destination: Self.logind, path: Self.managerPath, interface: Self.managerInterface, member: "Inhibit",
                arguments: [.string("sleep"), .string("Aubade"), .string("Pause the music before sleep"), .string("delay")])
            try connection.call(call, timeoutMilliseconds: 5_000) { [weak self] result in
                switch result {
                case .success(let reply):
                    guard case .unixFD(let descriptor)? = try? reply.arguments().first else {
                        Log.warning("logind's Inhibit answered without a descriptor: pausing before sleep is off")
                        return
                    }
                    guard let self, self.inhibitor == nil else { close(descriptor); return }
                    self.inhibitor = descriptor
                case .failure(let error):
                    Log.notice("no sleep inhibitor from logind (\(error.message)): pausing before sleep is off")
                }
            }
        } catch {
            Log.notice("no sleep inhibitor from logind (\(error.message)): pausing before sleep is off")
        }
    }

    private func releaseInhibitor() {
        if let inhibitor { close(inhibitor) }
        inhibitor = nil
    }
}
