"""A live HLS station for the tests: serves the folder `ffmpeg -f hls` writes into, plus a
master playlist, a playlist that names itself, and faults on demand.

    hls_server.py ROOT [CERT KEY]  prints "PORT <n>" once listening on 127.0.0.1 (HTTPS with
                                   CERT and KEY), then one "GET <path> <status>" line per request

Routes:
  /master.m3u8       two variants (64 and 128 kbit/s) of the same media playlist, live.m3u8
  /self.m3u8         a master playlist whose only variant is itself
  /control/freeze    from now on live.m3u8 is served as it is now (the station stalls)
  /control/thaw      live.m3u8 grows again
  /control/drop-next the next segment that appears in live.m3u8 answers 404 (a missing segment)
  /<file>            the file from ROOT (.m3u8, .ts, .aac, .m4s, .mp4 with their types); an .aac
                     segment with the ID3 tag packed_id3.py makes when ROOT/packed-titles.txt exists
"""
import http.server
import os
import re
import ssl
import sys
import threading

import packed_id3

ROOT = sys.argv[1]
LOCK = threading.Lock()
STATE = {"frozen": None, "drop_after": None, "dropped": None}
TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".aac": "audio/aac",
         ".m4s": "video/iso.segment", ".mp4": "video/mp4"}
MASTER = ("#EXTM3U\n#EXT-X-VERSION:3\n"
          "#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\nlive.m3u8\n"
          "#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS=\"mp4a.40.2\"\nlive.m3u8?variant=high\n")
SELF = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000\nself.m3u8\n"


def segments(playlist):
    return [line for line in playlist.splitlines() if line and not line.startswith("#")]


def live_playlist():
    with open(os.path.join(ROOT, "live.m3u8"), encoding="utf-8") as handle:
        text = handle.read()
    with LOCK:
        if STATE["frozen"] is not None:
            return STATE["frozen"]
        names = segments(text)
        if STATE["drop_after"] is not None and STATE["dropped"] is None:
            new = [name for name in names if name not in STATE["drop_after"]]
            if new:
                STATE["dropped"] = new[0]
        return text


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def answer(self, status, body, ctype="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)
        print("GET %s %d" % (self.path, status), flush=True)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        try:
            if path == "/master.m3u8":
                return self.answer(200, MASTER.encode(), TYPES[".m3u8"])
            if path == "/self.m3u8":
                return self.answer(200, SELF.encode(), TYPES[".m3u8"])
            if path == "/control/freeze":
                with LOCK:
                    STATE["frozen"] = None
                text = live_playlist()
                with LOCK:
                    STATE["frozen"] = text
                return self.answer(200, b"frozen\n")
            if path == "/control/thaw":
                with LOCK:
                    STATE["frozen"] = None
                return self.answer(200, b"thawed\n")
            if path == "/control/drop-next":
                current = live_playlist()
                with LOCK:
                    STATE["drop_after"] = set(segments(current))
                    STATE["dropped"] = None
                return self.answer(200, b"dropping the next segment\n")
            if path == "/control/dropped":
                with LOCK:
                    name = STATE["dropped"] or ""
                return self.answer(200, name.encode())
            if path == "/live.m3u8":
                return self.answer(200, live_playlist().encode(), TYPES[".m3u8"])
            name = os.path.basename(path)
            with LOCK:
                if name and name == STATE["dropped"]:
                    return self.answer(404, b"missing segment\n")
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name or "-"):
                return self.answer(404, b"not found\n")
            with open(os.path.join(ROOT, name), "rb") as handle:
                body = handle.read()
            # A packed-audio segment gets its ID3 tag (timestamp, title) when titles are set.
            if name.endswith(".aac"):
                body = packed_id3.tag(ROOT, name) + body
            return self.answer(200, body, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))
        except FileNotFoundError:
            return self.answer(404, b"not found\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) > 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
