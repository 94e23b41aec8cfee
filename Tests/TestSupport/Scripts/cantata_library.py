"""Prints the library Cantata keeps of an MPD server (its SQLite file,
$XDG_DATA_HOME/cantata/library/HOST_PORT.sql): one line per song, tab-separated: file,
album artist, album (Cantata's albumId), title, disc, track, year. Prints nothing while the
file or its songs table is not there yet (Cantata writes it once it has read the library).

    cantata_library.py SQL_FILE
"""
import os
import sqlite3
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not os.path.exists(sys.argv[1]):
        return
    connection = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=5)
    try:
        rows = connection.execute(
            "select file, albumArtist, albumId, title, disc, track, year from songs order by file").fetchall()
    except sqlite3.OperationalError:
        return
    finally:
        connection.close()
    for row in rows:
        print("\t".join("" if value is None else str(value) for value in row))


if __name__ == "__main__":
    main()
