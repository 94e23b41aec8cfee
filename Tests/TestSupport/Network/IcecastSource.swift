import Foundation

/// A radio station's playout feeding an `IcecastServer` mount: a python3 source client (the
/// script below, run by PID) that sends `PUT /mount` as libshout does (basic auth
/// `source:PASSWORD`, `Content-Type: audio/mpeg`, `Ice-Name`, `Expect: 100-continue`: icecast
/// answers `HTTP/1.1 100 Continue` and then reads the body), then the MP3 file in real time.
///
/// Pacing comes from the MP3 frame headers, not from the wall clock: frame k goes out when
/// CLOCK_MONOTONIC reaches start + its media time (the durations of the frames before it), so
/// the stream runs at exactly the file's speed. Tags and the encoder's Xing/Info frame are not
/// sent (a station sends bare frames). With `loop` the file starts over, the media time going on.
///
/// `titles` are set through the admin API at media times: just before the first byte of the
/// first frame at or after that time is sent. Each is logged with the frame's media time and
/// the CLOCK_MONOTONIC time of the send (`titleChanges`, compare with `monotonicNow()`). Icecast
/// then attaches the title to the 1400-byte chunk of the stream it is filling, so listeners get
/// it at the first `icy-metaint` boundary in that chunk or after it: up to 1399 bytes (about
/// 90 ms at 128 kbit/s) BEFORE the frame it was set at, and at most one metaint after.
///
/// The source does not reconnect: after `IcecastServer.restart()` it ends (`isRunning` false);
/// call `restart()` or `IcecastServer.startSource` again.
final class IcecastSource {
    /// A title the source set: at the frame of media time `mediaSeconds`, whose first byte was
    /// sent at `monotonicSeconds` (CLOCK_MONOTONIC).
    struct TitleChange: Equatable {
        var mediaSeconds: Double
        var monotonicSeconds: Double
        var title: String
    }

    let server: IcecastServer
    let mount: String
    let file: URL
    let loop: Bool
    let titles: [(atSeconds: Double, title: String)]
    let name: String
    let titleCharset: String
    /// The temporary directory with the script and its config; removed by `stop()`.
    let directory: URL
    private var process: Subprocess
    private var stopped = false

    /// Use `IcecastServer.startSource`.
    init(server: IcecastServer, mount: String, file: URL, loop: Bool,
         titles: [(atSeconds: Double, title: String)], name: String, titleCharset: String) throws {
        self.server = server
        self.mount = mount
        self.file = file
        self.loop = loop
        self.titles = titles
        self.name = name
        self.titleCharset = titleCharset
        var template = Array("\(NSTemporaryDirectory())aubade-source.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            try Self.script.write(to: directory.appendingPathComponent("source.py"), atomically: true, encoding: .utf8)
            let config: [String: Any] = [
                "port": server.port, "mount": mount, "password": IcecastServer.sourcePassword,
                "admin_user": IcecastServer.adminUser, "admin_password": IcecastServer.adminPassword,
                "file": file.path, "loop": loop, "name": name, "charset": titleCharset,
                "titles": titles.map { [$0.atSeconds, $0.title] as [Any] },
            ]
            try JSONSerialization.data(withJSONObject: config).write(to: directory.appendingPathComponent("source.json"))
            process = try Self.launch(in: directory, server: server, mount: mount)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.pid }

    /// The scheduled titles set so far, in order.
    var titleChanges: [TitleChange] {
        process.stderr.lines.compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "title", let media = Double(fields[1]),
                  let clock = Double(fields[2]) else { return nil }
            return TitleChange(mediaSeconds: media, monotonicSeconds: clock, title: String(fields[3]))
        }
    }

    /// Waits until `count` scheduled titles were set; false on timeout or when the source ended.
    func waitForTitleChanges(_ count: Int, timeout: TimeInterval) -> Bool {
        // Counted inside the wait: reading `titleChanges` there would take the buffer's lock again.
        var seen = 0
        return process.stderr.waitForLine(timeout: timeout) { line in
            if line.hasPrefix("title ") { seen += 1 }
            return seen >= count
        } != nil
    }

    /// What the script logged ("connected …", "title …", "loop N", "end", "error …").
    var log: String { process.stderr.lines.suffix(40).joined(separator: "\n") }

    /// Sets a title now, through the admin API (`IcecastServer.setTitle`), in `titleCharset`.
    func setTitleNow(_ title: String) throws {
        try server.setTitle(title, mount: mount, charset: titleCharset)
    }

    /// Stops the source by PID (SIGTERM, then SIGKILL): listeners of the mount are disconnected.
    func stop() {
        process.stop(grace: 3)
        guard !stopped else { return }
        stopped = true
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops this source process and starts a new one: the file from its start, the title
    /// schedule from media time 0 again.
    func restart() throws {
        precondition(!stopped, "restart() after stop()")
        process.stop(grace: 3)
        process = try Self.launch(in: directory, server: server, mount: mount)
    }

    /// CLOCK_MONOTONIC in seconds: the clock of `TitleChange.monotonicSeconds`.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Starts the script and waits until icecast lists the mount (10 s at most).
    private static func launch(in directory: URL, server: IcecastServer, mount: String) throws -> Subprocess {
        // The system python: pyenv's shim on PATH may lack modules or point elsewhere.
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
        let child = try Subprocess(python, [directory.appendingPathComponent("source.py").path,
                                            directory.appendingPathComponent("source.json").path])
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            if child.stderr.lines.contains(where: { $0.hasPrefix("connected ") }),
               (try? server.hasSource(mount: mount)) == true {
                return child
            }
            if !child.isRunning || Date() >= deadline {
                child.stop(grace: 1)
                child.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("the icecast source for \(mount) did not start: \(child.stderr.text)\n"
                                  + "icecast's log:\n\(server.log)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

extension IcecastSource {
    /// The source client. Its stderr is the log the Swift side reads.
    static let script = #"""
        """Aubade's test radio station: an Icecast source client feeding an MP3 file in real time.
        usage: source.py CONFIG.json (until the file ends, forever with "loop"; SIGTERM ends it).
        CONFIG: port, mount, password, admin_user, admin_password, file, loop, name, charset,
        titles: [[media_seconds, title], ...]. stderr: "connected STATUS-LINE",
        "title MEDIA_SECONDS MONOTONIC_SECONDS TITLE", "loop N", "end", "error WHY"."""
        import base64, json, signal, socket, sys, time, urllib.parse, urllib.request

        # kbit/s by bitrate index, per (MPEG-1?, layer); MPEG-2/2.5 layers II and III share a table.
        BITRATES = {
            (True, 1): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
            (True, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
            (True, 3): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
            (False, 1): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
            (False, 2): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
        }
        BITRATES[(False, 3)] = BITRATES[(False, 2)]
        RATES = {3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000]}

        def log(line):
            sys.stderr.write(line + '\n')
            sys.stderr.flush()

        def clock():
            return time.clock_gettime(time.CLOCK_MONOTONIC)

        def frame_at(data, i):
            """(length, samples, sample_rate) of the MPEG audio frame header at data[i], or None."""
            if i + 4 > len(data) or data[i] != 0xFF or data[i + 1] & 0xE0 != 0xE0:
                return None
            version, layer_bits = (data[i + 1] >> 3) & 3, (data[i + 1] >> 1) & 3
            bitrate_index, rate_index = data[i + 2] >> 4, (data[i + 2] >> 2) & 3
            if version == 1 or layer_bits == 0 or bitrate_index in (0, 15) or rate_index == 3:
                return None
            layer, mpeg1 = 4 - layer_bits, version == 3
            bitrate = BITRATES[(mpeg1, layer)][bitrate_index] * 1000
            rate, padding = RATES[version][rate_index], (data[i + 2] >> 1) & 1
            if layer == 1:
                return (12 * bitrate // rate + padding) * 4, 384, rate
            if layer == 3 and not mpeg1:
                return 72 * bitrate // rate + padding, 576, rate
            return 144 * bitrate // rate + padding, 1152, rate

        def frames(data):
            """The audio frames of an MP3 file as (bytes, seconds): no ID3 tags, no Xing/Info frame."""
            i = 0
            if data[:3] == b'ID3' and len(data) >= 10:  # 10-byte header, syncsafe size, maybe a footer
                i = 10 + ((data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]) + (10 if data[5] & 0x10 else 0)
            result = []
            while i < len(data):
                frame = frame_at(data, i)
                if frame is None:
                    i += 1  # junk or a trailing ID3v1 tag: look for the next frame header
                    continue
                length, samples, rate = frame
                body = data[i:i + length]
                if len(body) < length:
                    break
                # The encoder's info frame ("Xing"/"Info" after the side info) holds no audio.
                if not result and (b'Xing' in body[:40] or b'Info' in body[:40]):
                    i += length
                    continue
                result.append((body, samples / rate))
                i += length
            return result

        def set_title(config, title):
            """As IcecastServer.setTitle: UTF-8 bytes without a charset parameter (icecast passes
            them through), or Latin-1 bytes with charset=ISO-8859-1."""
            params = {'mount': config['mount'], 'mode': 'updinfo'}
            if config.get('charset', 'UTF-8').upper() in ('UTF-8', 'UTF8'):
                params['song'] = title.encode('utf-8')
            else:
                params['song'], params['charset'] = title.encode('latin-1'), 'ISO-8859-1'
            query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)  # %20, not +
            request = urllib.request.Request('http://127.0.0.1:%d/admin/metadata?%s' % (config['port'], query))
            credentials = ('%s:%s' % (config['admin_user'], config['admin_password'])).encode()
            request.add_header('Authorization', 'Basic ' + base64.b64encode(credentials).decode())
            with urllib.request.urlopen(request, timeout=5) as answer:
                answer.read()

        def connect(config):
            """PUT /mount with a source client's headers; the socket once icecast said go on."""
            sock = socket.create_connection(('127.0.0.1', config['port']), timeout=5)
            credentials = base64.b64encode(('source:%s' % config['password']).encode()).decode()
            request = ('PUT %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Basic %s\r\n'
                       'User-Agent: aubade-test-source\r\nContent-Type: audio/mpeg\r\nIce-Name: %s\r\n'
                       'Ice-Public: 0\r\nExpect: 100-continue\r\n\r\n'
                       % (config['mount'], config['port'], credentials, config.get('name') or ''))
            sock.sendall(request.encode('utf-8'))
            # "100 Continue" (Expect) or "200 OK"; anything else: wrong password, mount in use.
            answer = b''
            while b'\r\n\r\n' not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    raise OSError('icecast closed the connection after the PUT: %r' % answer)
                answer += chunk
            status = answer.split(b'\r\n', 1)[0].decode('latin-1')
            if status.split(' ')[1:2] not in (['100'], ['200']):
                raise OSError('icecast refused the source: %r' % answer)
            log('connected ' + status)
            sock.settimeout(None)
            return sock

        def main():
            with open(sys.argv[1]) as f:
                config = json.load(f)
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            with open(config['file'], 'rb') as f:
                audio = frames(f.read())
            if not audio:
                log('error no MPEG audio frames in %s' % config['file'])
                sys.exit(2)
            titles = sorted((float(t), title) for t, title in config.get('titles', []))
            sock = connect(config)
            start, media, rounds = clock(), 0.0, 0
            while True:
                for body, seconds in audio:
                    delay = start + media - clock()
                    if delay > 0:
                        time.sleep(delay)
                    due = []
                    while titles and titles[0][0] <= media + 1e-9:
                        due.append(titles.pop(0)[1])
                        set_title(config, due[-1])
                    sent = clock()
                    sock.sendall(body)
                    for title in due:
                        log('title %.6f %.6f %s' % (media, sent, title))
                    media += seconds
                rounds += 1
                if not config.get('loop'):
                    break
                log('loop %d' % rounds)
            log('end')
            sock.close()

        if __name__ == '__main__':
            try:
                main()
            except (OSError, ValueError) as error:
                log('error %s' % error)
                sys.exit(1)

        """#
}
