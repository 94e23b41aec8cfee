"""The MPD benchmark's library: one short MP3 copied COUNT times, each copy tagged with
mutagen (ID3v2.4) as a real library would be, in `Artist/Album/NN Title.mp3` folders.

    mpd_library.py make OUT BASE.mp3 COUNT MANIFEST.json LONG.mp3
    mpd_library.py retag FILE TITLE

`make` writes the library into OUT (which must not exist) and, last, MANIFEST (outside OUT):
what the benchmark asks about — the word in 1 % of the titles, an album and its track count,
the big folder, a file to retag, the long track — and how many files, folders, artists and
albums and bytes there are. The last single is LONG.mp3 (a song that plays on) tagged alike.
The last 3 % of the tracks (at least one) are singles, all in one folder (`Singles`, for
`lsinfo` of a big folder); the rest are albums of 10 tracks, 5 albums an artist, every 7th album
a compilation (album artist "Various Artists", a different artist per track) and every 3rd an
album with its album artist written out; 8 genres (by artist), years 1960-2023, a comment on
every 5th track (mpd's `metadata_to_use "+comment"`), a few names with accents. Everything
follows from the track's number: two runs write the same library.

`retag` sets FILE's title (TIT2) in place, as a tagger would.
"""
import io
import json
import os
import sys
import time

from mutagen.id3 import COMM, ID3, TALB, TCON, TDRC, TIT2, TPE1, TPE2, TRCK

SEARCH_WORD = "Nocturne"
TRACKS_PER_ALBUM = 10
ALBUMS_PER_ARTIST = 5

FIRST = ["Anna", "Ben", "Clara", "David", "Eva", "Felix", "Greta", "Hugo", "Ines", "Jonas",
         "Karin", "Lukas", "Mara", "Nils", "Olga", "Paul", "Rosa", "Simon", "Tara", "Ulf",
         "Vera", "Walter", "Xenia", "Yann", "Zoë", "Amélie", "Björn", "Cécile", "Dörte", "Émile",
         "Frida", "Gustav", "Hanna", "Igor", "Jana", "Kurt", "Lena", "Milo", "Nora", "Otto",
         "Pia", "Quentin", "Ruth", "Sven", "Theo", "Uma", "Vince", "Wanda", "Xaver", "Yara"]
LAST = ["Adler", "Berg", "Claes", "Dahl", "Engel", "Fuchs", "Graf", "Horn", "Ito", "Jäger",
        "Kern", "Lang", "Moser", "Nagel", "Ortiz", "Peters", "Quast", "Roth", "Sauer", "Thal",
        "Ulrich", "Vogt", "Wolf", "Young", "Zeller", "Åberg", "Brandt", "Costa", "Durand", "Eklund",
        "Ferrari", "García", "Haas", "Iversen", "Janssen", "Kowalski", "Lindqvist", "Müller", "Novak", "Olsen"]
ADJECTIVES = ["Blue", "Silent", "Golden", "Broken", "Distant", "Electric", "Quiet", "Northern", "Hidden", "Burning",
              "Paper", "Velvet", "Hollow", "Bright", "Frozen", "Wild", "Gentle", "Crimson", "Empty", "Secret",
              "Lonely", "Endless", "Sudden", "Ancient", "Little", "Open", "Restless", "Shining", "Sleeping", "Strange",
              "Summer", "Winter", "Autumn", "Spring", "Midnight", "Morning", "Evening", "Western", "Eastern", "Southern",
              "Copper", "Silver", "Iron", "Glass", "Stone", "Wooden", "Liquid", "Solar", "Lunar", "Stellar",
              "Quick", "Slow", "Heavy", "Light", "Dark", "Pale", "Deep", "High", "Low", "Far",
              "Near", "Lost", "Found", "New", "Old", "Young", "Wise", "Brave", "Calm", "Fierce",
              "Sweet", "Bitter", "Sour", "Salty", "Green", "Red", "Yellow", "Purple", "Orange", "White",
              "Black", "Grey", "Pink", "Amber", "Ivory", "Jade", "Ruby", "Coral", "Indigo", "Scarlet",
              "Rusty", "Dusty", "Misty", "Rainy", "Sunny", "Windy", "Snowy", "Stormy", "Cloudy", "Starry"]
NOUNS = ["Harbour", "River", "Mountain", "Garden", "Station", "Highway", "Window", "Mirror", "Forest", "Desert",
         "Ocean", "Island", "Valley", "Bridge", "Tower", "Castle", "Village", "City", "Street", "Square",
         "Dream", "Memory", "Shadow", "Light", "Fire", "Water", "Stone", "Wind", "Rain", "Snow",
         "Heart", "Hand", "Eye", "Voice", "Song", "Dance", "Letter", "Story", "Secret", "Promise",
         "Morning", "Evening", "Summer", "Winter", "Season", "Moment", "Hour", "Year", "Century", "Horizon",
         "Engine", "Machine", "Radio", "Signal", "Wire", "Circuit", "Rocket", "Planet", "Comet", "Galaxy",
         "Kingdom", "Empire", "Republic", "Nation", "Border", "Frontier", "Harvest", "Festival", "Parade", "Carnival",
         "Lantern", "Candle", "Compass", "Anchor", "Feather", "Ribbon", "Thread", "Needle", "Button", "Pocket",
         "Orchard", "Meadow", "Canyon", "Glacier", "Volcano", "Lagoon", "Reef", "Delta", "Prairie", "Tundra",
         "Velvet", "Marble", "Granite", "Crystal", "Diamond", "Pearl", "Silk", "Cotton", "Linen", "Satin"]
GENRES = ["Rock", "Jazz", "Pop", "Electronic", "Classical", "Folk", "Hip-Hop", "Blues"]

for word in FIRST + LAST + ADJECTIVES + NOUNS + GENRES + ["Various", "Artists", "Singles", "Single", "generated"]:
    assert SEARCH_WORD.lower() not in word.lower(), word


def artist_name(index):
    return f"{FIRST[index % len(FIRST)]} {LAST[(index // len(FIRST)) % len(LAST)]}"


def album_name(index):
    name = f"{ADJECTIVES[index % len(ADJECTIVES)]} {NOUNS[(index // len(ADJECTIVES)) % len(NOUNS)]}"
    rounds = index // (len(ADJECTIVES) * len(NOUNS))
    return name if rounds == 0 else f"{name} {rounds + 1}"


def title_of(number):
    """Two words from the lists, and the search word in 1 % of the titles (number % 100 == 37)."""
    mixed = (number * 2654435761) & 0xFFFFFFFF
    words = [ADJECTIVES[mixed % len(ADJECTIVES)], NOUNS[(mixed >> 8) % len(NOUNS)]]
    if number % 100 == 37:
        words.insert(1, SEARCH_WORD)
    return " ".join(words)


def safe(name):
    return name.replace("/", "-")


class Plan:
    def __init__(self, count):
        self.count = count
        self.singles = max(1, count * 3 // 100)
        self.album_tracks = count - self.singles
        self.albums = (self.album_tracks + TRACKS_PER_ALBUM - 1) // TRACKS_PER_ALBUM
        self.artists = max(1, (self.albums + ALBUMS_PER_ARTIST - 1) // ALBUMS_PER_ARTIST)

    def track(self, number):
        """(relative path, frames) of track `number` (0-based)."""
        frames = []
        if number < self.album_tracks:
            album, position = divmod(number, TRACKS_PER_ALBUM)
            owner = album // ALBUMS_PER_ARTIST
            compilation = album % 7 == 3
            artist = (owner * 7 + position * 13 + 1) % self.artists if compilation else owner
            title = title_of(number)
            folder = f"{'Various Artists' if compilation else safe(artist_name(owner))}/{safe(album_name(album))}"
            path = f"{folder}/{position + 1:02d} {safe(title)}.mp3"
            frames += [TALB(encoding=3, text=album_name(album)), TRCK(encoding=3, text=f"{position + 1}/{TRACKS_PER_ALBUM}")]
            if compilation:
                frames.append(TPE2(encoding=3, text="Various Artists"))
            elif album % 3 == 0:
                frames.append(TPE2(encoding=3, text=artist_name(owner)))
            year = 1960 + (album * 7) % 64
        else:
            single = number - self.album_tracks
            artist = (single * 17) % self.artists
            title = title_of(number)
            path = f"Singles/{single + 1:05d} {safe(artist_name(artist))} - {safe(title)}.mp3"
            year = 1960 + (single * 11) % 64
        frames += [TIT2(encoding=3, text=title), TPE1(encoding=3, text=artist_name(artist)),
                   TCON(encoding=3, text=GENRES[artist % len(GENRES)]), TDRC(encoding=3, text=str(year))]
        if number % 5 == 0:
            frames.append(COMM(encoding=3, lang="eng", desc="", text=f"generated track {number + 1}"))
        return path, frames


VERSION = 1


def make(out, base, count, manifest, long):
    started = time.monotonic()
    with open(base, "rb") as handle:
        audio = handle.read()
    with open(long, "rb") as handle:
        long_audio = handle.read()
    total = 0
    plan = Plan(count)
    os.makedirs(out)
    made = set()
    first_in_album = {}
    for number in range(count):
        path, frames = plan.track(number)
        folder = os.path.dirname(path)
        if folder not in made:
            os.makedirs(os.path.join(out, folder), exist_ok=True)
            made.add(folder)
        tags = ID3()
        for frame in frames:
            tags.add(frame)
        buffer = io.BytesIO(long_audio if number == count - 1 else audio)
        tags.save(buffer, v2_version=4, padding=lambda info: 256)
        with open(os.path.join(out, path), "wb") as handle:
            total += handle.write(buffer.getvalue())
        if number % TRACKS_PER_ALBUM == 0 and number < plan.album_tracks:
            first_in_album[number // TRACKS_PER_ALBUM] = path
    # An album in the middle (not a compilation): `find album` of it, 10 songs.
    album = plan.albums // 2
    while album % 7 == 3:
        album += 1
    retag = plan.track(min(album * TRACKS_PER_ALBUM + 4, plan.album_tracks - 1))[0]
    folders = set()
    for folder in made:
        while folder:
            folders.add(folder)
            folder = os.path.dirname(folder)
    facts = {
        "version": VERSION,
        "seconds": round(time.monotonic() - started, 1),
        "count": count,
        "searchWord": SEARCH_WORD,
        "searchMatches": sum(1 for number in range(count) if number % 100 == 37),
        "album": album_name(album),
        "albumTracks": min(TRACKS_PER_ALBUM, plan.album_tracks - album * TRACKS_PER_ALBUM),
        "bigFolder": "Singles",
        "bigFolderFiles": plan.singles,
        "retagFile": retag,
        "retagFolder": os.path.dirname(retag),
        "folders": len(folders),
        "artists": plan.artists,
        "albums": plan.albums,
        "genres": len(GENRES),
        "baseBytes": len(audio),
        "longTrack": plan.track(count - 1)[0],
        "bytes": total,
        "made": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
    }
    with open(manifest + ".tmp", "w") as handle:
        json.dump(facts, handle, indent=1, sort_keys=True)
    os.rename(manifest + ".tmp", manifest)


def retag(path, title):
    tags = ID3(path)
    tags.setall("TIT2", [TIT2(encoding=3, text=title)])
    tags.save(path, v2_version=4)


def main():
    if sys.argv[1:2] == ["make"] and len(sys.argv) == 7:
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6])
    elif sys.argv[1:2] == ["retag"] and len(sys.argv) == 4:
        retag(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
