"""The breakable network between the daemon and a station (Tests/TestSupport/Network/TCPRelay.swift):
a TCP relay. usage: tcp_relay.py PORT TARGET_PORT MODE (PORT 0: any free one). Prints
"port N" once it listens.
"""
import socket, sys, threading

def pipe(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

def main():
    port, target, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(('127.0.0.1', port))
    server.listen(64)
    print('port %d' % server.getsockname()[1], flush=True)
    count = 0
    while True:
        client, _ = server.accept()
        count += 1
        print('accepted %d' % count, flush=True)
        if mode == 'hangup':
            client.close()
            continue
        try:
            upstream = socket.create_connection(('127.0.0.1', target), timeout=5)
            upstream.settimeout(None)
        except OSError:
            client.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pipe, args=(a, b), daemon=True).start()

main()
