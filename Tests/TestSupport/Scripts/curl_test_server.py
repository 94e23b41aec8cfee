"""The local HTTP(S) server the CurlKit tests fetch from (Tests/CurlKitTests/Support/TestServer.swift).

usage: curl_test_server.py [CERTIFICATE KEY]

Prints one JSON line with its ports (`http`, `https` or null, `silent`: listens but never
accepts) and serves until SIGTERM. Bodies are the pattern byte i = i % 251, so any slice can be
checked.
"""
import json, re, select, socket, ssl, struct, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

BASE = bytes(i % 251 for i in range(251))

def pattern(start, count):
    offset = start % 251
    return (BASE * (count // 251 + 2))[offset:offset + count]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"   # one request per connection: nothing stays open by accident

    def log_message(self, *args):
        pass

    def body(self, code, data, headers=()):
        self.send_response(code)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def wait_for_client_to_go(self, limit=60):
        # Holds the connection open, sending nothing, until the client closes it.
        deadline = time.time() + limit
        while time.time() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:
                try:
                    if not self.connection.recv(4096):
                        return
                except OSError:
                    return

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        size = int(query.get("size", ["1000"])[0])
        path = url.path
        try:
            self.route(path, size)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def route(self, path, size):
        if path == "/fixed":
            self.body(200, pattern(0, size), [("Content-Type", "application/octet-stream")])
        elif path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.end_headers()
            sent = 0
            while True:
                self.wfile.write(pattern(sent, 1024))
                self.wfile.flush()
                sent += 1024
                time.sleep(0.05)
        elif path.startswith("/redirect/"):
            hops = int(path.split("/")[2])
            if hops > 0:
                self.body(302, b"moved", [("Location", "/redirect/%d" % (hops - 1)), ("X-Hop", str(hops))])
            else:
                self.body(200, b"done", [("X-Final", "yes")])
        elif path == "/missing":
            self.body(404, b"not found")
        elif path == "/empty-missing":
            self.body(404, b"")
        elif path == "/short":
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(pattern(0, size // 2))
            self.wfile.flush()
            self.close_connection = True
        elif path == "/reset":
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(pattern(0, 100))
            self.wfile.flush()
            time.sleep(0.1)
            # SO_LINGER 0: close() sends a RST instead of a FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        elif path == "/stall-after-headers":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.flush()
            self.wait_for_client_to_go()
        elif path == "/stall-mid-body":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(pattern(0, 100))
            self.wfile.flush()
            self.wait_for_client_to_go()
        elif path == "/icy":
            if self.headers.get("Icy-MetaData") != "1":
                self.body(400, b"ask for metadata")
                return
            # What a SHOUTcast v1 server answers: no HTTP status line at all.
            self.wfile.write(b"ICY 200 OK\r\nicy-name: Aubade Test\r\nicy-metaint: 16000\r\n"
                             b"content-type: audio/mpeg\r\n\r\n" + pattern(0, size))
            self.wfile.flush()
            self.close_connection = True
        elif path == "/range":
            requested = self.headers.get("Range")
            if requested is None:
                self.body(200, pattern(0, size))
                return
            match = re.fullmatch(r"bytes=(\d+)-", requested)
            if not match or int(match.group(1)) >= size:
                self.body(416, b"bad range " + requested.encode())
                return
            start = int(match.group(1))
            self.body(206, pattern(start, size - start),
                      [("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))])
        elif path == "/huge-header":
            self.body(200, b"x", [("X-Huge", "a" * size)])
        elif path == "/many-headers":
            self.body(200, b"x", [("X-Field-%d" % n, str(n)) for n in range(size)])
        elif path == "/echo":
            self.body(200, str(self.headers).encode("latin-1"))
        elif path == "/latin1":
            # http.server writes header text as ISO 8859-1: "Caf\xe9".
            self.body(200, b"x", [("icy-name", "Caf\u00e9")])
        elif path == "/to-file":
            self.body(302, b"", [("Location", "file:///etc/passwd")])
        else:
            self.body(400, b"unknown path")

def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()

ThreadingHTTPServer.daemon_threads = True
http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
serve(http)
https_port = None
if len(sys.argv) > 2:
    https = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    https.socket = context.wrap_socket(https.socket, server_side=True)
    https_port = https.server_address[1]
    serve(https)
silent = socket.socket()
silent.bind(("127.0.0.1", 0))
silent.listen(128)
print(json.dumps({"http": http.server_address[1], "https": https_port, "silent": silent.getsockname()[1]}), flush=True)
while True:
    time.sleep(3600)
