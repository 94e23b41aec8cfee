"""Aubade's test disk: a read-only FUSE view of SOURCE at MOUNTPOINT whose reads sleep
first, as CONTROL says ("SECONDS PID": reads by that process; read before each read, so
a test can change it at any time). Each read is logged on stderr: "read-start N OFFSET SIZE DELAY PID PATH"
then "read-end N". usage: slowfs.py SOURCE MOUNTPOINT CONTROL (runs until unmounted)."""
import errno, os, sys, threading, time
import fusepy as fuse  # Debian's python3-fusepy

class SlowFS(fuse.Operations):
    use_ns = True

    def __init__(self, source, control):
        self.source, self.control = source, control
        # Not `self.lock`: fusepy would take that for the lock() operation.
        self.mutex, self.count = threading.Lock(), 0

    def real(self, path):
        return os.path.join(self.source, path.lstrip('/'))

    def delay(self, caller):
        """The delay for a read by thread `caller`: CONTROL holds "SECONDS [PID]"; with a
        PID, only that process's threads are slowed."""
        try:
            with open(self.control) as f:
                fields = f.read().split()
            seconds = max(0.0, float(fields[0])) if fields else 0.0
            if len(fields) > 1 and self.process_of(caller) != int(fields[1]):
                return 0.0
            return seconds
        except (OSError, ValueError):
            return 0.0

    @staticmethod
    def process_of(thread):
        try:
            with open('/proc/%d/status' % thread) as f:
                for line in f:
                    if line.startswith('Tgid:'):
                        return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return thread

    def log(self, line):
        with self.mutex:
            sys.stderr.write(line + '\n')
            sys.stderr.flush()

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self.real(path))
        except OSError as e:
            raise fuse.FuseOSError(e.errno)
        attrs = {k: getattr(st, k) for k in ('st_mode', 'st_nlink', 'st_size', 'st_uid', 'st_gid')}
        attrs.update(st_atime=st.st_atime_ns, st_mtime=st.st_mtime_ns, st_ctime=st.st_ctime_ns)
        return attrs

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self.real(path))

    def readlink(self, path):
        return os.readlink(self.real(path))

    def open(self, path, flags):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise fuse.FuseOSError(errno.EROFS)
        try:
            return os.open(self.real(path), os.O_RDONLY)
        except OSError as e:
            raise fuse.FuseOSError(e.errno)

    def read(self, path, size, offset, fh):
        caller = fuse.fuse_get_context()[2]
        delay = self.delay(caller)
        with self.mutex:
            self.count += 1
            number = self.count
        self.log('read-start %d %d %d %g %d %s' % (number, offset, size, delay, caller, path))
        if delay > 0:
            time.sleep(delay)
        data = os.pread(fh, size, offset)
        self.log('read-end %d' % number)
        return data

    def release(self, path, fh):
        os.close(fh)
        return 0

    def statfs(self, path):
        st = os.statvfs(self.source)
        return {k: getattr(st, k) for k in ('f_bsize', 'f_frsize', 'f_blocks', 'f_bfree', 'f_bavail',
                                            'f_files', 'f_ffree', 'f_favail', 'f_namemax')}

if __name__ == '__main__':
    source, mountpoint, control = sys.argv[1:4]
    fuse.FUSE(SlowFS(source, control), mountpoint, foreground=True, ro=True, direct_io=True,
              fsname='aubade-slowfs')

