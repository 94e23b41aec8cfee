"""Writes back and drops a folder's files from the page cache (no root needed), so the next
read of them goes to the disk. usage: evict_page_cache.py FOLDER"""
import os
import sys

for name in os.listdir(sys.argv[1]):
    fd = os.open(os.path.join(sys.argv[1], name), os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
