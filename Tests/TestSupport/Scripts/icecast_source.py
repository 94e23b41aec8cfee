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

