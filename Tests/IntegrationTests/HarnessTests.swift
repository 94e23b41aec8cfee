import DBusKit
import Foundation
import SoundAnalysis
import XCTest
@testable import TestSupport

/// Checks of the harness itself, without the daemon: the session, the fixtures, the parsers,
/// the signal monitor, the recorder and the libdbus client. When these fail, the other
/// integration tests' failures say nothing about Aubade.
final class HarnessTests: AubadeTestCase {
    func testTheAubadeBinaryIsFound() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: try Daemon.binaryPath()))
    }

    func testFixturesAreTaggedMP3sAndBrokenFiles() throws {
        for file in [fixtures.alpha, fixtures.beta, fixtures.long] + fixtures.shortTracks {
            let head = try FileHandle(forReadingFrom: file).read(upToCount: 3)
            XCTAssertEqual(head, Data("ID3".utf8), "\(file.lastPathComponent) should start with an ID3v2 tag")
        }
        let untaggedHead = try FileHandle(forReadingFrom: fixtures.untagged).read(upToCount: 3)
        XCTAssertNotEqual(untaggedHead, Data("ID3".utf8), "c tone.mp3 must stay untagged")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.albumDirectory.path).sorted()
        XCTAssertEqual(files, ["10 z.mp3", "2 y.mp3"])
        XCTAssertEqual(try Data(contentsOf: fixtures.empty).count, 0)
        XCTAssertEqual(try Data(contentsOf: fixtures.random).count, 65_536)
        XCTAssertEqual(try FileHandle(forReadingFrom: fixtures.wavRenamed).read(upToCount: 4), Data("RIFF".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixtures.missing.path))
        XCTAssertTrue(fixtures.untagged.absoluteString.hasSuffix("/c%20tone.mp3"))
        let playlist = try String(contentsOf: fixtures.playlist, encoding: .utf8)
        XCTAssertTrue(playlist.contains("#EXTINF") && playlist.contains("../a.mp3"))
    }

    /// Tests of one process that ask for the same fixture folder at once each get it whole.
    func testAFixtureFolderAskedForByManyTestsAtOnceIsWholeForEach() throws {
        /// What each test found: how many files (-1: no folder, -2: an error).
        final class Found: @unchecked Sendable {
            let lock = NSLock()
            var counts: [Int] = []
        }
        let names = (0..<400).map { String(format: "%03d.txt", $0) }
        let found = Found()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let count = (try? FixtureCache.folder("harness-many-at-once") { folder in
                for name in names { try Data(name.utf8).write(to: folder.appendingPathComponent(name)) }
            }).map { (try? FileManager.default.contentsOfDirectory(atPath: $0.path).count) ?? -1 } ?? -2
            found.lock.withLock { found.counts.append(count) }
        }
        XCTAssertEqual(found.counts, Array(repeating: names.count, count: 8))
    }

    /// A fixture file is made once for the same arguments, and every caller gets a copy of its
    /// own; other arguments make another file; a maker whose output is more than its arguments
    /// (key nil) makes it every time, in place.
    func testAFixtureFileIsMadeOnceForTheSameArgumentsAndCopiedToEachCaller() throws {
        let directory = try Fixtures.makeDirectory()
        let marker = UUID().uuidString  // this run's own files in the shared cache
        var made = 0
        func make(_ name: String, key: [String]?) throws -> String {
            let path = directory + "/" + name
            try FixtureCache.file(at: path, key: key.map { [marker] + $0 }) { path in
                made += 1
                try Data("\(key ?? ["none"]) \(made) \(marker)".utf8).write(to: URL(fileURLWithPath: path))
            }
            return String(try String(contentsOfFile: path, encoding: .utf8).dropLast(marker.count + 1))
        }
        XCTAssertEqual(try make("a.txt", key: ["one"]), "[\"one\"] 1")
        XCTAssertEqual(try make("b.txt", key: ["one"]), "[\"one\"] 1", "made again for the same arguments")
        XCTAssertEqual(made, 1)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: directory + "/a.txt"))
        XCTAssertEqual(try make("c.txt", key: ["one"]), "[\"one\"] 1", "a caller's change reached the cache")
        XCTAssertEqual(try make("d.txt", key: ["two"]), "[\"two\"] 2")
        XCTAssertEqual(try make("e.bin", key: ["two"]), "[\"two\"] 3", "another extension is another format")
        XCTAssertEqual(try make("f.txt", key: nil), "[\"none\"] 4")
        XCTAssertEqual(try make("g.txt", key: nil), "[\"none\"] 5")
        let folder = FixtureCache.root.appendingPathComponent("files")
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertFalse(cached.contains { $0.hasPrefix("making-\(getpid())-") }, "\(cached)")
        // The cache keeps none of this test's files (the small ones that hold its marker).
        for name in cached {
            let file = folder.appendingPathComponent(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            if size < 200, let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix(marker) {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// A fixture folder's copy keeps what `cp -a` keeps of what fixtures hold: folders, files
    /// with their bytes, mode and time, names that are not UTF-8, symbolic links, FIFOs.
    func testAFixtureFolderIsCopiedAsCpWouldCopyIt() throws {
        let directory = try Fixtures.makeDirectory()
        let source = directory + "/source", copy = directory + "/copy"
        try FileManager.default.createDirectory(atPath: source + "/inner", withIntermediateDirectories: true)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Fixtures.write(bytes, to: source + "/inner/big.mp3")
        XCTAssertEqual(chmod(source + "/inner/big.mp3", 0o640), 0)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 5), timespec(tv_sec: 1_100_000_000, tv_nsec: 7)]
        XCTAssertEqual(utimensat(AT_FDCWD, source + "/inner/big.mp3", &times, 0), 0)
        let oddName: [UInt8] = Array("odd-".utf8) + [0xff, 0xfe] + Array(".mp3".utf8)
        try Fixtures.write([1, 2, 3], toPathBytes: Array((source + "/").utf8) + oddName)
        XCTAssertEqual(symlink("/dev/null", source + "/null.mp3"), 0)
        XCTAssertEqual(mkfifo(source + "/fifo.mp3", 0o644), 0)

        try TreeCopy.copy(source, to: copy)

        XCTAssertEqual(try Fixtures.contents(of: copy + "/inner/big.mp3"), bytes)
        var info = stat()
        XCTAssertEqual(lstat(copy + "/inner/big.mp3", &info), 0)
        XCTAssertEqual(info.st_mode & 0o7777, 0o640)
        XCTAssertEqual(info.st_mtim.tv_sec, 1_100_000_000)
        XCTAssertEqual(info.st_mtim.tv_nsec, 7)
        let oddCopy = (Array((copy + "/").utf8) + oddName).map { CChar(bitPattern: $0) } + [0]
        XCTAssertEqual(lstat(oddCopy, &info), 0, "a name that is not UTF-8 lost its bytes")
        XCTAssertEqual(info.st_size, 3)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: copy + "/null.mp3"), "/dev/null")
        XCTAssertEqual(lstat(copy + "/fifo.mp3", &info), 0)
        XCTAssertEqual(info.st_mode & 0o170000, 0o010000, "fifo.mp3 is no FIFO")
    }

    /// dbus-send's argument syntax, as the tests write their calls, read into typed values.
    func testSendSyntaxReadsTheArgumentsAsTyped() throws {
        XCTAssertEqual(try SendSyntax.value("string:a:b"), .string("a:b"))
        XCTAssertEqual(try SendSyntax.value("int64:-5"), .int64(-5))
        XCTAssertEqual(try SendSyntax.value("objpath:/org/aubade/Track/1"), .objectPath("/org/aubade/Track/1"))
        XCTAssertEqual(try SendSyntax.value("boolean:true"), .boolean(true))
        XCTAssertEqual(try SendSyntax.value("variant:double:0.4"), .variant(.double(0.4)))
        XCTAssertEqual(try SendSyntax.value("array:objpath:/a,/b"), .array(elementSignature: "o", [.objectPath("/a"), .objectPath("/b")]))
        XCTAssertEqual(try SendSyntax.value("array:string:"), .array(elementSignature: "s", []))
        XCTAssertEqual(try SendSyntax.value("dict:string:int32:a,1"),
                       .dictionary(keySignature: "s", valueSignature: "i", [(key: .string("a"), value: .int32(1))]))
        XCTAssertThrowsError(try SendSyntax.value("int32:x"))
        XCTAssertThrowsError(try SendSyntax.value("nonsense"))
        // Replies read back with their wire types.
        let metadata = TypedBusValue(.vardict([("mpris:length", .int64(3)), ("xesam:artist", .stringArray(["Ann"]))]))
        XCTAssertEqual(metadata.dictionary?["mpris:length"]?.signature, "x")
        XCTAssertEqual(metadata.dictionary?["xesam:artist"]?.strings, ["Ann"])
    }

    func testPactlSinkInputParsing() {
        let inputs = Pulse.parseSinkInputs("""
            Sink Input #12
            \tDriver: protocol-native.c
            \tSink: 1
            \tCorked: no
            \tMute: no
            \tVolume: front-left: 26214 /  40% / -23.88 dB,   front-right: 26214 /  40% / -23.88 dB
            \t        balance 0.00
            \tProperties:
            \t\tmedia.role = "music"
            \t\tapplication.name = "Aubade"
            \t\tapplication.process.id = "4242"
            """)
        XCTAssertEqual(inputs.count, 1)
        XCTAssertEqual(inputs.first?.index, 12)
        XCTAssertEqual(inputs.first?.sink, 1)
        XCTAssertEqual(inputs.first?.corked, false)
        XCTAssertEqual(inputs.first?.volumePercents, [40, 40])
        XCTAssertEqual(inputs.first?.properties["media.role"], "music")
        XCTAssertEqual(inputs.first?.processID, 4242)
    }

    func testSessionHasHeadphonesAsTheDefaultSink() throws {
        let result = try Shell.run("pactl", ["get-default-sink"])
        XCTAssertEqual(result.trimmedOutput, "headphones", "\(result)")
        XCTAssertEqual(Set(try Pulse.sinkNames().values), ["speakers", "headphones"])
    }

    /// A PipeWire session starts when WirePlumber comes up late. The default sink lives in
    /// WirePlumber's "default" metadata: until WirePlumber has made it, pipewire-pulse answers
    /// set-default-sink with "Not supported", and scripts/audio-session, which asked once, gave
    /// up (a make test session on a loaded machine failed to start so). Here the `wireplumber`
    /// first on PATH starts the real one a second late, which failed every time.
    func testAPipeWireSessionStartsWhenWirePlumberIsLate() throws {
        let folder = TestRunDirectory.url.appendingPathComponent("late-wireplumber-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let late = folder.appendingPathComponent("wireplumber")
        try "#!/bin/sh\nsleep 1\nexec \(try Shell.which("wireplumber")) \"$@\"\n".write(to: late, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: late.path)
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try Shell.run(Repository.file("scripts/audio-session").path,
                                ["--server", "pipewire", "--", "pactl", "get-default-sink"],
                                environment: ["PATH": path], timeout: 60)
        XCTAssertEqual(run.status, 0, "\(run)")
        XCTAssertEqual(run.trimmedOutput, "headphones", "\(run)")
    }

    func testRecorderTellsSoundFromSilence() throws {
        let silence = try Pulse.listen(seconds: 0.5)
        XCTAssertGreaterThan(silence.frames, 0, "parec recorded nothing")
        XCTAssertTrue(silence.isSilence, "\(silence)")

        let wav = TestRunDirectory.url.appendingPathComponent("harness-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        XCTAssertTrue(try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                            "synth", "5", "sine", "440", "vol", "0.5"]).succeeded)
        let player = try Subprocess("paplay", ["--property=media.role=music", wav.path])
        defer { player.stop() }
        var stream: SinkInput?
        try eventually("paplay's sink input") {
            stream = try Pulse.sinkInput(ofProcess: player.pid)
            return stream?.corked == false
        }
        XCTAssertEqual(stream?.properties["media.role"], "music")
        let sound = try Pulse.listen(seconds: 0.5)
        XCTAssertTrue(sound.isSound, "\(sound)")
    }

    /// The sound-server restart measure kills the server only when its recording is level with
    /// real time (SoundServerRestart.kill): a recorder left waiting, as a loaded machine leaves
    /// it, must read as trailing, and as level again once it has caught up.
    func testARecorderLeftWaitingReadsAsTrailingRealTimeUntilItCatchesUp() throws {
        let recorder = try SinkRecorder(device: "headphones.monitor", environment: [:])
        try recorder.waitForAudio(seconds: 0.2, timeout: 10)
        for _ in 0..<20 {
            _ = recorder.lag()
            Thread.sleep(forTimeInterval: 0.01)
        }
        recorder.signal(SIGSTOP)
        Thread.sleep(forTimeInterval: 0.4)  // the time the recorder is left waiting
        let stopped = recorder.lag()
        recorder.signal(SIGCONT)
        XCTAssertGreaterThan(stopped, 0.3, "parec stopped for 0.4 s, yet the recording trails by \(stopped) s")
        var lag = stopped
        XCTAssertTrue(eventually(timeout: 5) {
            lag = recorder.lag()
            return lag <= SoundServerRestart.levelLag
        }, "the recording still trails real time by \(lag) s after parec went on")
        _ = recorder.stop()
    }

    func testSignalMonitorSeesSignals() throws {
        let signals = try SignalMonitor(sender: "org.freedesktop.DBus")
        defer { signals.stop() }
        let mark = signals.mark
        // A new connection makes the bus announce NameOwnerChanged.
        _ = try BusClient(label: "aubade.tests.newcomer")
        let change = signals.waitForMessage(after: mark) { $0.member == "NameOwnerChanged" }
        XCTAssertEqual(change?.kind, "signal")
        XCTAssertEqual(change?.arguments.count, 3)
        XCTAssertEqual(change?.arguments.first?.signature, "s")
    }

    /// A client let go of while its queue hands it a signal is then freed on that queue: it
    /// must close its connection there, not wait on its own queue (libdispatch traps: CI saw
    /// this test process end with SIGILL). Many rounds, since the hand-over is a race.
    func testAClientFreedWhileASignalArrivesClosesWithoutATrap() throws {
        for _ in 0..<300 {
            var monitor: SignalMonitor? = try SignalMonitor(sender: "org.freedesktop.DBus")
            _ = try BusClient(label: "aubade.tests.newcomer")  // its coming and going: two signals
            _ = monitor?.mark
            monitor = nil
        }
    }

    /// The tests' one bus client: a call answered, and a signal woken on as it arrives.
    func testTheBusClientCallsAndReceivesSignals() throws {
        let client = try BusClient(destination: "org.freedesktop.DBus", label: "aubade.tests.harness")
        try client.watchSignals(matching: "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'")
        let mark = client.signalMark
        let (values, _) = try client.call("org.freedesktop.DBus", "GetId")
        XCTAssertEqual(values.first?.asString?.count, 32, "GetId: \(values)")
        _ = try BusClient(label: "aubade.tests.newcomer")  // another connection: NameOwnerChanged
        XCTAssertNotNil(client.waitForSignal(after: mark, timeout: 5) { $0.member == "NameOwnerChanged" })
    }

    /// No `Synchronization.Mutex` in the service or its tests: on Linux it is a priority-
    /// inheriting futex whose contended hand-over ThreadSanitizer cannot see, so every access
    /// under it can be reported as a race (CI failed on one in the test support's EventLog, and
    /// once in DebouncedSaver). Handoff's `LockedState` and `Lock` are the lock types.
    func testNoSynchronizationMutexAnywhere() throws {
        let root = Repository.root
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                // Only files that name it at all are read line by line (a regex over every line of
                // every file took 20 s in a debug build).
                guard text.contains("Mutex") else { continue }
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("Mutex") {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    if code.contains(/\bMutex\s*[<(]/) {
                        offenders.append("\(file.path.dropFirst(root.path.count + 1)):\(number + 1)")
                    }
                }
            }
        }
        XCTAssertEqual(offenders, [], "use Handoff.LockedState (or Lock) instead")
    }

    /// The sanitizers run the toolchain's llvm-symbolizer, named in their options. Found on
    /// PATH, a machine with Debian's llvm ran that one, which loads libLLVM-14 at each start, and
    /// LeakSanitizer starts one at the exit of every sanitized daemon: 49 ms of CPU a start
    /// against 27. Here the script's own lines choose it, with the toolchain last on PATH.
    func testTheSanitizersRunTheToolchainsSymbolizer() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        let lines = script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let choice = lines.filter { $0.hasPrefix("symbolizer=") || $0.hasPrefix("symbolizer_option=") || $0.hasPrefix("[[ -x $symbolizer ]]") }
        XCTAssertEqual(choice.count, 3, "the symbolizer's choice is not found: \(choice)")
        let run = try Shell.run("bash", ["-c", "PATH=/usr/bin:/bin:/opt/swift/usr/bin\n" + choice.joined(separator: "\n")
                                         + "\nprintf %s \"$symbolizer_option\""])
        let swift = try XCTUnwrap(try Shell.run("bash", ["-c", "PATH=$PATH:/opt/swift/usr/bin; readlink -f \"$(command -v swift)\""])
            .stdout.split(separator: "\n").first, "no swift found")
        let expected = URL(fileURLWithPath: String(swift)).deletingLastPathComponent().appendingPathComponent("llvm-symbolizer").path
        XCTAssertEqual(run.stdout, " external_symbolizer_path=\(expected)", run.stderr)
        for sanitizer in ["TSAN_OPTIONS=", "ASAN_OPTIONS="] {
            let options = lines.filter { $0.contains(sanitizer) && $0.contains("log_path=") }
            XCTAssertEqual(options.count, 1, "\(sanitizer) is not found")
            XCTAssertTrue(options.allSatisfy { $0.contains("$symbolizer_option\"") }, "\(sanitizer) does not name the symbolizer")
        }
    }

    /// Every background build of `make test` builds in a build path of its own. A build holds
    /// its path's build database while it runs, even stopped (SIGSTOP) for the tests that run
    /// alone, and `swift test --skip-build` in `.build` then fails: CI failed so, when the
    /// release check (`make release`) shared `.build` ("database is locked", "no tests found").
    func testTheBackgroundBuildsNeverShareTheTestsBuildPath() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        // A call and its continuation lines, joined.
        let joined = script.replacingOccurrences(of: "\\\n", with: " ")
        let calls = joined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("background_build ") }
        XCTAssertGreaterThanOrEqual(calls.count, 2, "the sanitizer and release builds were not found")
        for call in calls {
            XCTAssertNotNil(call.firstMatch(of: /--build-path \S*\.build\/\S+/), "shares .build: \(call)")
        }
    }

    /// The background builds take only the CPU time the tests leave: they run in the SCHED_IDLE
    /// class, which their compilers inherit. `nice` did not reach them (SwiftPM starts its
    /// compilers at nice 0: seen at nice 0 under a swift-build at 10, taking 1.5 of CI's 2 cores
    /// from the tests' timing judgements).
    func testTheBackgroundBuildsRunInTheIdleClassAndTheirChildrenToo() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        let runs = script.split(separator: "\n").filter { $0.contains("\"$@\" >\"$work/build-$short.log\"") }
        XCTAssertEqual(runs.count, 1, "background_build's command line was not found")
        for run in runs { XCTAssertTrue(run.contains("chrt --idle 0 \"$@\""), "not in the idle class: \(run)") }
        // What the class buys: a grandchild (as a compiler is of swift-build) is in it too.
        let policy = try Shell.run("chrt", ["--idle", "0", "sh", "-c", "sh -c 'chrt -p $$'"])
        XCTAssertTrue(policy.stdout.contains("SCHED_IDLE"), policy.stdout + policy.stderr)
    }

    /// Phases run side by side (most tests wait on real time): the sound-server phases and the
    /// sanitizer phases (each at the end of its build) all start before make test waits for
    /// any. The tests that need the machine to themselves run before any batch, after the
    /// background builds (in the idle class) have started, in the plain phases only (a
    /// sanitizer phase runs them in its batch), and nothing stops the builds for them.
    func testPhasesRunSideBySideAndTheLoneTestsBeforeThem() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        func line(_ prefix: String, after start: Int = 0) -> Int? {
            lines.indices.first { $0 >= start && lines[$0].hasPrefix(prefix) }
        }
        let build = try XCTUnwrap(line("if build \"build\""), "the build phase is not found")
        let backgroundBuilds = try XCTUnwrap(line("if ((${#sanitizers[@]} > 0)) || [[ $release_check == yes ]]; then start_background_builds", after: build),
                                             "the background builds do not start after the build")
        let pulseaudio = try XCTUnwrap(line("pulseaudio) define_phase pulseaudio", after: build), "the pulseaudio phase is not defined")
        let pipewire = try XCTUnwrap(line("pipewire) define_phase pipewire", after: build), "the pipewire phase is not defined")
        let alone = try XCTUnwrap(line("for phase in \"${defined_phases[@]}\"; do run_alone \"$phase\"", after: max(pulseaudio, pipewire)),
                                  "the tests that run alone do not run once the sound-server phases are defined")
        XCTAssertGreaterThan(alone, backgroundBuilds, "the tests alone run before the background builds start")
        let serverPhases = try XCTUnwrap(line("for phase in \"${defined_phases[@]}\"; do start_phase \"$phase\"", after: alone),
                                         "the sound-server phases' batches do not start after the tests that run alone")
        let sanitizers = try XCTUnwrap(line("start_phase \"$short\"", after: serverPhases),
                                       "the sanitizer phases are not started with start_phase after the server phases")
        let sanitizerLoopEnd = try XCTUnwrap(line("done", after: sanitizers))
        let wait = try XCTUnwrap(line("wait_for_phases", after: serverPhases))
        XCTAssertGreaterThan(wait, sanitizerLoopEnd, "make test waits for a phase before it has started them all")
        XCTAssertFalse(script.contains("kill -STOP") || script.contains("pause_background_builds"),
                       "the tests alone stop the background builds: their idle class already leaves them the CPU")
        XCTAssertFalse(lines.contains { $0.contains("run_alone") && $0.contains("phase_sanitizer") },
                       "run_alone is chosen by sanitizer again: the sanitizer phases run those tests in their batch")
    }

    /// make test's swift test runs plan one at a time and test side by side: each holds the
    /// planning lock until its test runner is going. SwiftPM reads, and may rewrite, its build
    /// path's build description before it runs a test, and its own lock does not order runs of
    /// different phases (its lock file is in TMPDIR): a swift test that read the description
    /// while another wrote it died of SIGBUS in llbuild's YAML parser (CI). Here the script's own
    /// `batch` and `wait_for_runner` run two batches at once, with a `swift` that plans for 0.5 s
    /// (with a child of its own meanwhile) and then runs a "runner" for 1.5 s.
    func testSwiftTestRunsPlanOneAtATimeAndTestSideBySide() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        let batch = try XCTUnwrap(script.firstMatch(of: /\n    batch\(\) \{\n(?:.*\n)*?    \}\n/), "batch is not found")
        let waitForRunner = try XCTUnwrap(script.firstMatch(of: /\nwait_for_runner\(\) \{\n(?:.*\n)*?\}\n/),
                                          "wait_for_runner is not found")
        let folder = TestRunDirectory.url.appendingPathComponent("planning-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let swift = folder.appendingPathComponent("swift")
        try """
            #!/bin/bash
            echo "plan $$ start" >>"$EVENTS"; sleep 0.5; echo "plan $$ end" >>"$EVENTS"
            "$FOLDER/runner.xctest" 1.5 & wait
            echo "done $$" >>"$EVENTS"
            """.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        // The "runner": a program whose name ends in .xctest, as SwiftPM's test bundles do (the
        // sleep while planning is a child too, as SwiftPM's git is, and must not count).
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: folder.appendingPathComponent("runner.xctest").path)
        let run = try Shell.run("bash", ["-c", String(waitForRunner.output) + String(batch.output) + """
            name=x work=$FOLDER logs_root=$FOLDER environment=(PATH="$FOLDER:$PATH") phase_server=([x]=none)
            problem() { :; }; slowest() { :; }
            batch 1 one x1 plain & batch 2 two x2 plain & wait
            """], environment: ["FOLDER": folder.path, "EVENTS": folder.appendingPathComponent("events").path], timeout: 30)
        let events = try String(contentsOf: folder.appendingPathComponent("events"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ") }
        let kinds = events.map { $0.first == "plan" ? "\($0[0]) \($0[2])" : String($0[0]) }
        XCTAssertEqual(kinds, ["plan start", "plan end", "plan start", "plan end", "done", "done"],
                       "planning overlapped, or the second run planned only after the first had run: \(events) \(run)")
        XCTAssertEqual(events.count == 6 ? events[0][1] : "", events.count == 6 ? events[1][1] : "-", "\(events)")
    }

    /// At most two phases' batches at once: a sanitizer phase whose build is done waits until
    /// one of the phases running has ended (three at once failed five tests that judge time in
    /// one CI-like run). Here the script's `wait_for_a_phase_slot` is given two running phases,
    /// one of which ends after 0.5 s, and one phase that is gone without its seconds.
    func testASanitizerPhaseWaitsForOneOfTwoRunningPhasesToEnd() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/run-tests"), encoding: .utf8)
        let function = try XCTUnwrap(script.firstMatch(of: /\nwait_for_a_phase_slot\(\) \{\n(?:.*\n)*?\}\n/),
                                     "wait_for_a_phase_slot is not found")
        let lines = script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try XCTUnwrap(lines.firstIndex(of: "start_phase \"$short\""), "the sanitizer phases' start is not found")
        XCTAssertEqual(lines[start - 1], "wait_for_a_phase_slot", "a sanitizer phase starts without waiting for a slot")
        XCTAssertTrue(lines.contains("max_phases_at_once=2"), "the limit is not two phases")
        let folder = TestRunDirectory.url.appendingPathComponent("slots-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Shell.run("bash", ["-c", String(function.output) + """
            work=$FOLDER max_phases_at_once=2
            sleep 30 & first=$!
            sleep 30 & second=$!
            running_batches=("$first:pulseaudio" "$second:pipewire")
            (sleep 0.5; echo 60 >"$work/seconds-pipewire") &
            wait_for_a_phase_slot
            [[ -f $work/seconds-pipewire ]] && echo "after a phase ended" || echo "too soon"
            sleep 30 & third=$!
            running_batches+=("$third:tsan")
            kill "$first"; wait "$first" 2>/dev/null
            wait_for_a_phase_slot && echo "a phase gone without its seconds has ended too"
            kill "$second" "$third"
            """], environment: ["FOLDER": folder.path], timeout: 30)
        XCTAssertEqual(run.stdout.split(separator: "\n"), ["after a phase ended", "a phase gone without its seconds has ended too"],
                       run.description)
    }

    /// A recording glitch is not a change of pitch. CI's PipeWire run recorded one 1.2 s into
    /// a 3 s 440 Hz tone (the tone cut, 10 ms of ringing around zero — sign flips every sample —,
    /// then the tone again); the first 8 crossings after it looked like 660 Hz, and the test of
    /// Metadata timing judged the change 1.76 s early.
    func testAGlitchInTheRecordingIsNotAChangeOfPitch() {
        let rate = 44_100.0
        var samples: [Int16] = []
        for frame in 0..<Int(4 * rate) {
            let time = Double(frame) / rate
            let value: Double
            if time >= 1.2 && time < 1.21 {
                value = frame % 2 == 0 ? 300 : -300  // the ringing of the glitch
            } else {
                value = 15_000 * sin(2 * .pi * (time < 3 ? 440 : 660) * time)
            }
            samples += [Int16(value), Int16(value)]  // stereo
        }
        let audio = ToneAnalysis(samples.withUnsafeBufferPointer { Data(buffer: $0) })
        let change = audio.pitchChange(in: 0..<audio.samples.count, fromHalfPeriod: rate / 880, toHalfPeriod: rate / 1320)
        XCTAssertEqual((change ?? 0) / rate, 3.0, accuracy: 0.01, "the change of pitch is at 3 s, not at the glitch")
    }

    /// The amplitude counts magnitudes instead of sorting them; it must pick the element the
    /// sort picked, for recorded samples (whole, within 16 bits) and for anything else.
    func testTheAmplitudeIsTheSorted99thPercentileOfTheMagnitudes() {
        func sorted99th(_ samples: [Double], _ range: Range<Int>) -> Double {
            let magnitudes = samples[range].map(abs).sorted()
            return magnitudes[Int(Double(magnitudes.count - 1) * 0.99)]
        }
        var generator = SystemRandomNumberGenerator()
        let recorded = (0..<20_000).map { _ in Double(Int16.random(in: .min ... .max, using: &generator)) }
        let quiet = [Double](repeating: 0, count: 500) + [-32_768, 32_767, 7, -7]
        let fractional = recorded.map { $0 / 3 }
        let outOfRange = recorded + [-70_000, 90_000]
        for samples in [recorded, quiet, fractional, outOfRange] {
            let audio = ToneAnalysis(samples: samples)
            for range in [0..<samples.count, 3..<samples.count / 2, 1..<2, 0..<100] {
                XCTAssertEqual(audio.amplitude(in: range), sorted99th(samples, range), "\(range) of \(samples.count) samples")
            }
            XCTAssertEqual(audio.amplitude(in: 5..<5), 0)
        }
    }

    /// Package.swift builds the sound analysis with -O whatever the build: unoptimised, the
    /// cross-correlation of one Snapcast test took seconds of CPU (15 times what it takes so).
    func testTheSoundAnalysisIsBuiltOptimised() {
        XCTAssertTrue(SoundAnalysisBuild.isOptimised)
    }

    /// Two recordings of the same noise, one of them 30 frames later and one 25 frames earlier:
    /// the cross-correlation finds those lags in every 100 ms window, at a correlation of 1.
    func testTheCrossCorrelationFindsHowFarApartTheSameSoundIs() {
        var generator = SystemRandomNumberGenerator()
        let rate = 44_100.0
        let sound = (0..<Int(rate)).map { _ in Double(Int16.random(in: -16_000...16_000, using: &generator)) }
        let later = [Double](repeating: 0, count: 30) + sound
        let earlier = Array(sound.dropFirst(25))
        let span = Int(0.2 * rate)..<Int(0.8 * rate)
        for (other, lag) in [(later, 30.0), (earlier, -25.0)] {
            let found = CrossCorrelation.offsets(sound, other, span: span, rate: rate, maximumLag: Int(0.05 * rate))
            XCTAssertEqual(found.median, lag / rate * 1000, accuracy: 1e-9, "lag \(lag)")
            XCTAssertEqual(found.largest, abs(lag) / rate * 1000, accuracy: 1e-9, "lag \(lag)")
            XCTAssertEqual(found.correlation, 1, accuracy: 1e-9, "lag \(lag)")
        }
    }
}
