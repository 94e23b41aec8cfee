"""Aubade's test web server. usage: httpserver.py STATE_DIR FILES_DIR|- [--tls]
Prints "port N" (and "tls-port N") on stdout once listening; runs until SIGTERM.
STATE_DIR: registry/*.json (what the test registered), requests.log (one JSON line per
request, written before the answer), tls/server.pem + server.key. Routes: see TestHTTPServer."""
import http.server, json, os, select, socket, ssl, struct, sys, threading, time, urllib.parse

STATE = sys.argv[1]
FILES = None if sys.argv[2] == '-' else os.path.realpath(sys.argv[2])
LOG_LOCK = threading.Lock()
LOG_FD = os.open(os.path.join(STATE, 'requests.log'), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
TYPES = {'.mp3': 'audio/mpeg', '.pls': 'audio/x-scpls', '.m3u': 'audio/x-mpegurl',
         '.m3u8': 'application/vnd.apple.mpegurl', '.html': 'text/html; charset=utf-8',
         '.txt': 'text/plain; charset=utf-8', '.ogg': 'audio/ogg', '.flac': 'audio/flac'}
CHUNK = 65536


def registry():
    """What the test registered: {path: entry}, a later file winning."""
    entries = {}
    folder = os.path.join(STATE, 'registry')
    for name in sorted(os.listdir(folder)):
        if name.endswith('.json'):
            with open(os.path.join(folder, name)) as f:
                entry = json.load(f)
            entries[entry['path']] = entry
    return entries


def block(text):
    """An ICY metadata block: a length byte (units of 16), the text padded with NULs."""
    text = text[:4080]
    count = (len(text) + 15) // 16
    return bytes([count]) + text + b'\0' * (count * 16 - len(text))


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request, client_address):
        # A client that went away, or failed the TLS handshake: one line, not a traceback.
        sys.stderr.write('client %s: %r\n' % (client_address, sys.exc_info()[1]))
        sys.stderr.flush()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'AubadeTestHTTP/1'

    def setup(self):
        if isinstance(self.request, ssl.SSLSocket):
            # In this thread, not in accept(): a client that never completes the handshake
            # must not stop the server accepting others.
            self.request.settimeout(10)
            self.request.do_handshake()
            self.request.settimeout(None)
        super().setup()

    def log_message(self, format, *args):
        pass  # requests.log instead

    def do_GET(self):
        self.route(head=False)

    def do_HEAD(self):
        self.route(head=True)

    # MARK: helpers

    def record(self):
        line = json.dumps({'method': self.command, 'path': self.path, 'range': self.headers.get('Range'),
                           'icy': self.headers.get('Icy-MetaData'),
                           'tls': isinstance(self.request, ssl.SSLSocket)}) + '\n'
        with LOG_LOCK:
            os.write(LOG_FD, line.encode())

    def reply(self, code, body=b'', ctype='text/html; charset=utf-8', headers=()):
        self.send_response(code)
        self.send_header('Content-Type', ctype)
        if code != 204:
            self.send_header('Content-Length', str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if not self.head_only and code not in (204, 304):
            self.wfile.write(body)

    def page(self, code, text=None):
        reason = self.responses.get(code, ('Status',))[0]
        body = '<!DOCTYPE html>\n<html><head><title>%d %s</title></head><body><h1>%d %s</h1><p>%s</p></body></html>\n' % (
            code, reason, code, reason, text or reason)
        self.reply(code, body.encode())

    def file(self, name):
        """(path, size) of a file in FILES, or None (also for names leaving FILES)."""
        if FILES is None or not name:
            return None
        path = os.path.realpath(os.path.join(FILES, urllib.parse.unquote(name)))
        if not path.startswith(FILES + os.sep) or not os.path.isfile(path):
            return None
        return path, os.path.getsize(path)

    def ctype(self, name):
        return TYPES.get(os.path.splitext(name)[1].lower(), 'application/octet-stream')

    def send_range(self, path, start, end, rate=None):
        """Bytes start..end-1 of the file; paced at `rate` bytes/s when given."""
        if self.head_only:
            return
        began = time.monotonic()
        with open(path, 'rb') as f:
            f.seek(start)
            sent, total = 0, end - start
            step = CHUNK if rate is None else max(1, min(CHUNK, rate // 50))
            while sent < total:
                data = f.read(min(step, total - sent))
                if not data:
                    break
                if rate is not None:
                    delay = began + sent / rate - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                self.wfile.write(data)
                self.wfile.flush()
                sent += len(data)

    @staticmethod
    def parse_range(value, size):
        """(start, end) of a single `bytes=` range; None to ignore it; 'unsatisfiable'."""
        if not value or not value.startswith('bytes=') or ',' in value:
            return None
        first, _, last = value[6:].strip().partition('-')
        try:
            if first == '':
                count = int(last)
                return (max(0, size - count), size) if count > 0 else 'unsatisfiable'
            start = int(first)
            end = size if last == '' else min(size, int(last) + 1)
        except ValueError:
            return None
        if start >= size:
            return 'unsatisfiable'
        return (start, end) if end > start else None

    def hold(self):
        """Silence until the client goes (it closes, or the connection breaks)."""
        while True:
            readable, _, _ = select.select([self.connection], [], [], 0.5)
            if readable:
                try:
                    if not self.connection.recv(4096):
                        return
                except (OSError, ssl.SSLError):
                    return

    # MARK: routes

    def route(self, head):
        self.head_only = head
        self.record()
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        entries = registry()
        entry = entries.get(url.path)
        if entry is not None and 'body' in entry:
            return self.reply(200, bytes.fromhex(entry['body']), entry['type'])
        parts = url.path.split('/', 2)
        kind, rest = parts[1] if len(parts) > 1 else '', parts[2] if len(parts) > 2 else ''
        try:
            handler = getattr(self, 'route_' + kind, None)
            if handler is None:
                return self.page(404, 'no route %s' % url.path)
            return handler(rest, query, entries)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    def route_file(self, name, query, entries, ranges=True):
        found = self.file(name)
        if found is None:
            return self.page(404, 'no file %s' % name)
        path, size = found
        wanted = self.parse_range(self.headers.get('Range'), size) if ranges else None
        if wanted == 'unsatisfiable':
            return self.reply(416, b'', headers=[('Content-Range', 'bytes */%d' % size), ('Accept-Ranges', 'bytes')])
        if wanted is None:
            self.send_response(200)
            start, end = 0, size
        else:
            self.send_response(206)
            start, end = wanted
            self.send_header('Content-Range', 'bytes %d-%d/%d' % (start, end - 1, size))
        self.send_header('Content-Type', self.ctype(name))
        self.send_header('Content-Length', str(end - start))
        if ranges:
            self.send_header('Accept-Ranges', 'bytes')
        self.end_headers()
        self.send_range(path, start, end)

    def route_norange(self, name, query, entries):
        self.route_file(name, query, entries, ranges=False)

    def route_redirect(self, rest, query, entries):
        hops, _, name = rest.partition('/')
        if not hops.isdigit():
            return self.page(400, 'usage: /redirect/N/NAME')
        hops = int(hops)
        if hops == 0:
            return self.route_file(name, query, entries)
        target = '/redirect/%d/%s' % (hops - 1, name) if hops > 1 else '/%s/%s' % (query.get('to', 'file'), name)
        original = urllib.parse.urlsplit(self.path).query
        scheme = 'https' if isinstance(self.request, ssl.SSLSocket) else 'http'
        host = self.headers.get('Host') or '127.0.0.1:%d' % self.server.server_address[1]
        location = '%s://%s%s%s' % (scheme, host, target, '?' + original if original else '')
        self.reply(int(query.get('code', '302')), b'<html><body>moved</body></html>\n', headers=[('Location', location)])

    def route_status(self, code, query, entries):
        if not code.isdigit() or not 200 <= int(code) <= 599:
            return self.page(400, 'usage: /status/200..599')
        self.page(int(code))

    def route_html(self, rest, query, entries):
        self.page(200, 'An HTML page, not a stream (a captive portal, a station\'s web site).')

    def route_stall(self, name, query, entries):
        found = self.file(name)
        if found is None:
            return self.page(404, 'no file %s' % name)
        path, size = found
        after = min(size, int(query.get('after', '0')))
        self.close_connection = True
        self.send_response(200)
        self.send_header('Content-Type', self.ctype(name))
        self.send_header('Content-Length', str(size))
        self.end_headers()
        self.send_range(path, 0, after)
        self.wfile.flush()
        self.hold()

    def route_close(self, name, query, entries):
        found = self.file(name)
        if found is None:
            return self.page(404, 'no file %s' % name)
        path, size = found
        after = min(size, int(query.get('after', '0')))
        self.close_connection = True
        self.send_response(200)
        self.send_header('Content-Type', self.ctype(name))
        self.send_header('Content-Length', str(size))
        self.end_headers()
        self.send_range(path, 0, after)
        self.wfile.flush()
        if query.get('reset') == '1':  # RST instead of FIN
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))

    def playlist(self, name, ctype):
        found = self.file(name)
        if found is None:
            return self.page(404, 'nothing registered or in the folder for %s' % name)
        with open(found[0], 'rb') as f:
            self.reply(200, f.read(), ctype)

    def route_pls(self, name, query, entries):
        self.playlist(name, 'audio/x-scpls')

    def route_m3u(self, name, query, entries):
        self.playlist(name, 'audio/x-mpegurl')

    def route_slow(self, name, query, entries):
        found = self.file(name)
        if found is None:
            return self.page(404, 'no file %s' % name)
        path, size = found
        self.send_response(200)
        self.send_header('Content-Type', self.ctype(name))
        self.send_header('Content-Length', str(size))
        self.end_headers()
        self.send_range(path, 0, size, rate=max(1, int(query.get('rate', '16000'))))

    def route_icy(self, name, query, entries):
        found = self.file(name)
        if found is None:
            return self.page(404, 'no file %s' % name)
        entry = entries.get('icy:' + name, {})
        metaint = int(query.get('metaint', entry.get('metaint', 8192)))
        blocks = [bytes.fromhex(b) for b in entry.get('blocks', [])] or \
            [block(("StreamTitle='%s';" % name).encode())]
        wants = self.headers.get('Icy-MetaData', '').strip() == '1'
        station = entry.get('station', 'Aubade Test Radio').encode('latin-1', 'replace')
        self.close_connection = True
        # SHOUTcast v1 answers with its own status line and no HTTP version.
        head = (b'ICY 200 OK\r\nicy-notice1:<BR>This stream requires Winamp<BR>\r\n'
                b'icy-name:' + station + b'\r\nicy-genre:Test\r\nicy-pub:0\r\nicy-br:128\r\n'
                b'content-type:audio/mpeg\r\n')
        if wants:
            head += b'icy-metaint:%d\r\n' % metaint
        self.wfile.write(head + b'\r\n')
        if self.head_only:
            return
        rate = int(query['rate']) if 'rate' in query else None
        with open(found[0], 'rb') as f:
            audio = f.read()
        began, sent, since, index = time.monotonic(), 0, 0, 0
        while True:
            for offset in range(0, len(audio), 4096):
                chunk = audio[offset:offset + 4096]
                while chunk:
                    if rate:
                        delay = began + sent / rate - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                    piece = chunk[:metaint - since] if wants else chunk
                    self.wfile.write(piece)
                    chunk, sent, since = chunk[len(piece):], sent + len(piece), since + len(piece)
                    if wants and since == metaint:
                        self.wfile.write(blocks[index] if index < len(blocks) else b'\0')
                        index, since = index + 1, 0
            self.wfile.flush()
            if query.get('loop') != '1':
                return

    def route_hugeheader(self, rest, query, entries):
        self.reply(200, b'a huge header\n', 'text/plain', headers=[('X-Huge', 'a' * 102400)])

    def route_manyheaders(self, rest, query, entries):
        self.reply(200, b'many headers\n', 'text/plain', headers=[('X-Many-%d' % i, str(i)) for i in range(10000)])


def main():
    plain = Server(('127.0.0.1', 0), Handler)
    servers = [plain]
    print('port %d' % plain.server_address[1])
    if '--tls' in sys.argv[3:]:
        secure = Server(('127.0.0.1', 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(STATE, 'tls', 'server.pem'), os.path.join(STATE, 'tls', 'server.key'))
        secure.socket = context.wrap_socket(secure.socket, server_side=True, do_handshake_on_connect=False)
        servers.append(secure)
        print('tls-port %d' % secure.server_address[1])
    sys.stdout.flush()
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    plain.serve_forever()


if __name__ == '__main__':
    main()

