"""A fake MPRIS player in a process of its own, for Aubade's integration tests
(Tests/TestSupport/Processes/ProcessMPRISPlayer.swift).

usage: fakeplayer.py --name NAME [--identity TEXT] [--desktop-entry NAME]
                     [--status Playing|Paused|Stopped] [--track N]
                     [--pause strict|toggle|ignore|fights-back] [--player-properties-delay SECONDS]
                     [--stream self|child|none] [--sink SINK] [--frequency HZ]

Owns org.mpris.MediaPlayer2.NAME on the session bus and serves /org/mpris/MediaPlayer2: the root
interface, org.mpris.MediaPlayer2.Player and org.freedesktop.DBus.Properties (Get, GetAll, Set;
PropertiesChanged after every change, as real players do). While Playing it plays a sine tone on
the sound server (PULSE_SERVER): from this process through libpulse-simple (--stream self; the
stream's application.process.id is this process), or through a child `pacat` fed on its stdin
(--stream child: the stream belongs to the child, as with browsers and Electron apps). While
Paused or Stopped nothing is written: the stream stays, silent.

--pause: strict (Pause pauses only a Playing player), toggle (Pause behaves as PlayPause, as some
players wrongly do), ignore (Pause is received and does nothing), fights-back (as strict, and 0.2 s
after pausing it plays again by itself, as if its user or its own policy insisted).

--player-properties-delay: seconds before it answers Get and GetAll of the Player interface (its
status and track), as a busy player; the root interface (and the bus daemon) answer at once.

The track's mpris:trackid is /org/mpris/MediaPlayer2/NAME/track/N; track 0 is no track at all
(empty Metadata, as many a Stopped player has).

stdout, one JSON object a line, flushed at once (times are CLOCK_MONOTONIC seconds):
  {"event": "ready", "pid": P, "stream_pid": S, "unique_name": ":1.N"}
      the name is owned and the stream connected (stream_pid 0 with --stream none)
  {"event": "call", "interface": I, "member": M, "args": [...], "sender": ":1.N", "time": T}
      every method call received on /org/mpris/MediaPlayer2, before it is answered
  {"event": "status", "status": S, "track": N, "cause": C, "time": T}
      after every change of PlaybackStatus or track (cause: the method, or "user")
  {"event": "answered", "interface": I, "member": M, "args": [...], "time": T}
      after sending an answer it held back (--player-properties-delay)
  {"event": "control", "member": M, "time": T}  after a control call (below), before its answer
  {"event": "error", "message": TEXT}

The test acts as the player's own user through /org/aubade/IntegrationTests/FakePlayer,
interface org.aubade.IntegrationTests.FakePlayer: UserPlay(), UserPause(), UserStop(),
UserChangeTrack(i). SIGTERM or SIGINT: the stream (and the child pacat) stops, exit status 0.
"""
import argparse, ctypes, fcntl, json, math, os, signal, struct, subprocess, sys, threading, time

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

ROOT = 'org.mpris.MediaPlayer2'
PLAYER = 'org.mpris.MediaPlayer2.Player'
PROPERTIES = 'org.freedesktop.DBus.Properties'
PATH = '/org/mpris/MediaPlayer2'
CONTROL = 'org.aubade.IntegrationTests.FakePlayer'
CONTROL_PATH = '/org/aubade/IntegrationTests/FakePlayer'
RATE = 44100
CHUNK_FRAMES = 882  # 20 ms
FIGHT_BACK_SECONDS = 0.2
OUT_LOCK = threading.Lock()


def emit(event, **fields):
    fields['event'] = event
    line = json.dumps(fields) + '\n'
    with OUT_LOCK:
        sys.stdout.write(line)
        sys.stdout.flush()


def tone(frequency):
    """One second of a stereo s16le sine: an integer frequency loops seamlessly."""
    samples = []
    for n in range(RATE):
        value = int(8000 * math.sin(2 * math.pi * frequency * n / RATE))
        samples.append(value)
        samples.append(value)
    return struct.pack('<%dh' % len(samples), *samples)


class Output:
    """Writes the tone while `playing` is set, from a thread of its own."""

    def __init__(self, args):
        self.args = args
        self.playing = threading.Event()
        self.stopping = False
        self.buffer = tone(args.frequency)
        self.offset = 0
        self.child = None
        self.simple = None
        self.stream_pid = 0
        self.thread = None

    def chunk(self):
        size = CHUNK_FRAMES * 4
        data = self.buffer[self.offset:self.offset + size]
        self.offset = (self.offset + size) % len(self.buffer)
        return data

    def start(self):
        mode = self.args.stream
        if mode == 'none':
            return
        if mode == 'self':
            self.connect_simple()
            self.stream_pid = os.getpid()
        else:
            self.spawn_pacat()
            self.stream_pid = self.child.pid
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def connect_simple(self):
        # The client's properties come from the environment (libpulse reads PULSE_PROP).
        os.environ['PULSE_PROP'] = 'media.role=music application.icon_name=fake'
        self.pa = ctypes.CDLL('libpulse-simple.so.0')
        libpulse = ctypes.CDLL('libpulse.so.0')
        libpulse.pa_strerror.restype = ctypes.c_char_p
        libpulse.pa_strerror.argtypes = [ctypes.c_int]
        self.strerror = lambda code: libpulse.pa_strerror(code).decode()

        class SampleSpec(ctypes.Structure):
            _fields_ = [('format', ctypes.c_int), ('rate', ctypes.c_uint32), ('channels', ctypes.c_uint8)]

        class BufferAttr(ctypes.Structure):
            _fields_ = [(name, ctypes.c_uint32) for name in ('maxlength', 'tlength', 'prebuf', 'minreq', 'fragsize')]

        self.pa.pa_simple_new.restype = ctypes.c_void_p
        self.pa.pa_simple_new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                          ctypes.c_char_p, ctypes.POINTER(SampleSpec), ctypes.c_void_p,
                                          ctypes.POINTER(BufferAttr), ctypes.POINTER(ctypes.c_int)]
        self.pa.pa_simple_write.restype = ctypes.c_int
        self.pa.pa_simple_write.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                            ctypes.POINTER(ctypes.c_int)]
        self.pa.pa_simple_free.argtypes = [ctypes.c_void_p]
        spec = SampleSpec(3, RATE, 2)  # PA_SAMPLE_S16LE
        unset = 0xFFFFFFFF
        attr = BufferAttr(unset, RATE * 4 // 10, unset, unset, unset)  # 100 ms target latency
        error = ctypes.c_int(0)
        device = self.args.sink.encode() if self.args.sink else None
        self.simple = self.pa.pa_simple_new(None, self.args.identity.encode(), 1, device,
                                            ('%s tone' % self.args.name).encode(), ctypes.byref(spec), None,
                                            ctypes.byref(attr), ctypes.byref(error))
        if not self.simple:
            raise RuntimeError('pa_simple_new: %s' % self.strerror(error.value))

    def spawn_pacat(self):
        command = ['pacat', '--playback', '--raw', '--format=s16le', '--rate=%d' % RATE, '--channels=2',
                   '--latency-msec=100', '--client-name=%s (pacat)' % self.args.identity,
                   '--stream-name=%s tone' % self.args.name, '--property=media.role=music']
        if self.args.sink:
            command.append('--device=%s' % self.args.sink)

        def die_with_parent():
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      preexec_fn=die_with_parent)
        try:
            fcntl.fcntl(self.child.stdin.fileno(), 1031, 8192)  # F_SETPIPE_SZ: little audio in the pipe
        except OSError:
            pass

    def run(self):
        while not self.stopping:
            if not self.playing.wait(0.05):
                continue
            data = self.chunk()
            try:
                if self.simple:
                    error = ctypes.c_int(0)
                    if self.pa.pa_simple_write(self.simple, data, len(data), ctypes.byref(error)) < 0:
                        emit('error', message='pa_simple_write: %s' % self.strerror(error.value))
                        return
                else:
                    self.child.stdin.write(data)
                    self.child.stdin.flush()
            except (BrokenPipeError, ValueError, OSError) as error:
                if not self.stopping:
                    emit('error', message='writing to pacat: %s' % error)
                return

    def stop(self):
        self.stopping = True
        self.playing.clear()
        if self.child:
            try:
                self.child.stdin.close()
            except OSError:
                pass
            self.child.terminate()
            try:
                self.child.wait(2)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()
        if self.thread:
            self.thread.join(1)
        if self.simple and not (self.thread and self.thread.is_alive()):
            self.pa.pa_simple_free(self.simple)
            self.simple = None


class Player(dbus.service.Object):
    def __init__(self, bus, args, output):
        self.args = args
        self.output = output
        self.status = args.status
        self.track = args.track
        self.position = 0
        self.since = time.monotonic()
        dbus.service.Object.__init__(self, bus, PATH)

    # State

    def track_path(self):
        # The same scheme as ProcessMPRISPlayer.trackPath(name:track:).
        return '/org/mpris/MediaPlayer2/%s/track/%d' % (self.args.name.replace('.', '_').replace('-', '_'), self.track)

    def position_us(self):
        now = time.monotonic()
        if self.status == 'Playing':
            return self.position + int((now - self.since) * 1e6)
        return self.position

    def set_status(self, status, cause):
        if status == self.status:
            return
        self.position = self.position_us()
        self.since = time.monotonic()
        self.status = status
        if status == 'Playing':
            self.output.playing.set()
        else:
            self.output.playing.clear()
        if status == 'Stopped':
            self.position = 0
        emit('status', status=status, track=self.track, cause=cause, time=time.monotonic())
        self.PropertiesChanged(PLAYER, dbus.Dictionary({'PlaybackStatus': dbus.String(status)}, signature='sv'),
                               dbus.Array([], signature='s'))

    def set_track(self, track, cause):
        if track == self.track:
            return
        self.track = track
        self.position = 0
        self.since = time.monotonic()
        emit('status', status=self.status, track=track, cause=cause, time=time.monotonic())
        self.PropertiesChanged(PLAYER, dbus.Dictionary({'Metadata': self.metadata()}, signature='sv'),
                               dbus.Array([], signature='s'))

    def metadata(self):
        if self.track == 0:  # no track at all
            return dbus.Dictionary({}, signature='sv')
        return dbus.Dictionary({
            'mpris:trackid': dbus.ObjectPath(self.track_path()),
            'mpris:length': dbus.Int64(180000000),
            'xesam:title': dbus.String('%s track %d' % (self.args.identity, self.track)),
            'xesam:artist': dbus.Array([dbus.String(self.args.identity)], signature='s'),
        }, signature='sv')

    def properties(self, interface):
        if interface == ROOT:
            values = {
                'Identity': dbus.String(self.args.identity),
                'CanQuit': dbus.Boolean(False),
                'CanRaise': dbus.Boolean(False),
                'HasTrackList': dbus.Boolean(False),
                'SupportedUriSchemes': dbus.Array([], signature='s'),
                'SupportedMimeTypes': dbus.Array([], signature='s'),
            }
            if self.args.desktop_entry:
                values['DesktopEntry'] = dbus.String(self.args.desktop_entry)
            return values
        if interface == PLAYER:
            return {
                'PlaybackStatus': dbus.String(self.status),
                'LoopStatus': dbus.String('None'),
                'Rate': dbus.Double(1.0),
                'Shuffle': dbus.Boolean(False),
                'Metadata': self.metadata(),
                'Volume': dbus.Double(1.0),
                'Position': dbus.Int64(self.position_us()),
                'MinimumRate': dbus.Double(1.0),
                'MaximumRate': dbus.Double(1.0),
                'CanGoNext': dbus.Boolean(True),
                'CanGoPrevious': dbus.Boolean(True),
                'CanPlay': dbus.Boolean(True),
                'CanPause': dbus.Boolean(True),
                'CanSeek': dbus.Boolean(False),
                'CanControl': dbus.Boolean(True),
            }
        return None

    def log(self, interface, member, sender, *args):
        emit('call', interface=interface, member=member, args=[str(a) for a in args], sender=str(sender),
             time=time.monotonic())

    # org.mpris.MediaPlayer2

    @dbus.service.method(ROOT, sender_keyword='sender')
    def Raise(self, sender=None):
        self.log(ROOT, 'Raise', sender)

    @dbus.service.method(ROOT, sender_keyword='sender')
    def Quit(self, sender=None):
        self.log(ROOT, 'Quit', sender)

    # org.mpris.MediaPlayer2.Player

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def Play(self, sender=None):
        self.log(PLAYER, 'Play', sender)
        self.set_status('Playing', 'Play')

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def Pause(self, sender=None):
        self.log(PLAYER, 'Pause', sender)
        mode = self.args.pause
        if mode == 'ignore':
            return
        if mode == 'toggle':
            self.set_status('Paused' if self.status == 'Playing' else 'Playing', 'Pause')
        elif self.status == 'Playing':
            self.set_status('Paused', 'Pause')
            if mode == 'fights-back':
                def play_again():
                    self.set_status('Playing', 'fights back')
                    return GLib.SOURCE_REMOVE
                GLib.timeout_add(int(FIGHT_BACK_SECONDS * 1000), play_again)

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def PlayPause(self, sender=None):
        self.log(PLAYER, 'PlayPause', sender)
        self.set_status('Paused' if self.status == 'Playing' else 'Playing', 'PlayPause')

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def Stop(self, sender=None):
        self.log(PLAYER, 'Stop', sender)
        self.set_status('Stopped', 'Stop')

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def Next(self, sender=None):
        self.log(PLAYER, 'Next', sender)
        self.set_track(self.track + 1, 'Next')

    @dbus.service.method(PLAYER, sender_keyword='sender')
    def Previous(self, sender=None):
        self.log(PLAYER, 'Previous', sender)
        self.set_track(max(1, self.track - 1), 'Previous')

    @dbus.service.method(PLAYER, in_signature='x', sender_keyword='sender')
    def Seek(self, offset, sender=None):
        self.log(PLAYER, 'Seek', sender, offset)

    @dbus.service.method(PLAYER, in_signature='ox', sender_keyword='sender')
    def SetPosition(self, track, position, sender=None):
        self.log(PLAYER, 'SetPosition', sender, track, position)

    @dbus.service.method(PLAYER, in_signature='s', sender_keyword='sender')
    def OpenUri(self, uri, sender=None):
        self.log(PLAYER, 'OpenUri', sender, uri)

    @dbus.service.signal(PLAYER, signature='x')
    def Seeked(self, position):
        pass

    # org.freedesktop.DBus.Properties

    def answer(self, interface, member, args, value, reply):
        """Answers with `value` (read when the call came), late for the Player interface when
        --player-properties-delay says so."""
        delay = self.args.player_properties_delay
        if interface != PLAYER or delay <= 0:
            reply(value)
            return

        def late():
            reply(value)
            emit('answered', interface=PROPERTIES, member=member, args=[str(a) for a in args],
                 time=time.monotonic())
            return GLib.SOURCE_REMOVE
        GLib.timeout_add(int(delay * 1000), late)

    @dbus.service.method(PROPERTIES, in_signature='ss', out_signature='v', sender_keyword='sender',
                         async_callbacks=('reply', 'error'))
    def Get(self, interface, name, sender=None, reply=None, error=None):
        self.log(PROPERTIES, 'Get', sender, interface, name)
        values = self.properties(interface)
        if values is None or name not in values:
            error(dbus.exceptions.DBusException('no property %s.%s' % (interface, name),
                                                name='org.freedesktop.DBus.Error.InvalidArgs'))
            return
        self.answer(interface, 'Get', [interface, name], values[name], reply)

    @dbus.service.method(PROPERTIES, in_signature='s', out_signature='a{sv}', sender_keyword='sender',
                         async_callbacks=('reply', 'error'))
    def GetAll(self, interface, sender=None, reply=None, error=None):
        self.log(PROPERTIES, 'GetAll', sender, interface)
        self.answer(interface, 'GetAll', [interface],
                    dbus.Dictionary(self.properties(interface) or {}, signature='sv'), reply)

    @dbus.service.method(PROPERTIES, in_signature='ssv', sender_keyword='sender')
    def Set(self, interface, name, value, sender=None):
        self.log(PROPERTIES, 'Set', sender, interface, name, value)
        raise dbus.exceptions.DBusException('the fake\'s properties are read-only',
                                            name='org.freedesktop.DBus.Error.PropertyReadOnly')

    @dbus.service.signal(PROPERTIES, signature='sa{sv}as')
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Control(dbus.service.Object):
    """The player's own user (its buttons), driven by the test. Each call ends with a
    "control" line, written before the answer, so the test knows the change is done."""

    def __init__(self, bus, player):
        self.player = player
        dbus.service.Object.__init__(self, bus, CONTROL_PATH)

    def done(self, member):
        emit('control', member=member, time=time.monotonic())

    @dbus.service.method(CONTROL)
    def UserPlay(self):
        self.player.set_status('Playing', 'user')
        self.done('UserPlay')

    @dbus.service.method(CONTROL)
    def UserPause(self):
        self.player.set_status('Paused', 'user')
        self.done('UserPause')

    @dbus.service.method(CONTROL)
    def UserStop(self):
        self.player.set_status('Stopped', 'user')
        self.done('UserStop')

    @dbus.service.method(CONTROL, in_signature='i')
    def UserChangeTrack(self, track):
        self.player.set_track(int(track), 'user')
        self.done('UserChangeTrack')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--name', required=True)
    parser.add_argument('--identity')
    parser.add_argument('--desktop-entry')
    parser.add_argument('--status', default='Playing', choices=['Playing', 'Paused', 'Stopped'])
    parser.add_argument('--track', type=int, default=1)
    parser.add_argument('--pause', default='strict', choices=['strict', 'toggle', 'ignore', 'fights-back'])
    parser.add_argument('--player-properties-delay', type=float, default=0.0)
    parser.add_argument('--stream', default='self', choices=['self', 'child', 'none'])
    parser.add_argument('--sink')
    parser.add_argument('--frequency', type=int, default=441)
    args = parser.parse_args()
    if not args.identity:
        args.identity = 'Fake %s' % args.name

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    bus = dbus.SessionBus()
    output = Output(args)
    player = Player(bus, args, output)
    Control(bus, player)
    # The name last: whoever sees it appear can already ask everything.
    try:
        name = dbus.service.BusName('org.mpris.MediaPlayer2.' + args.name, bus, do_not_queue=True)
    except dbus.exceptions.NameExistsException:
        emit('error', message='org.mpris.MediaPlayer2.%s is already owned' % args.name)
        return 3
    try:
        output.start()
    except Exception as error:  # the sound server refused, pacat missing
        emit('error', message=str(error))
        return 4
    if player.status == 'Playing':
        output.playing.set()

    def quit(*_):
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, quit)
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGINT, quit)
    emit('ready', pid=os.getpid(), stream_pid=output.stream_pid, unique_name=str(bus.get_unique_name()))
    loop.run()
    output.stop()
    del name
    return 0


if __name__ == '__main__':
    sys.exit(main())
