// Captured from mpd 0.23.12 on the library `MPDReference.make` builds (the same names and
// tags, written by /usr/bin/python3 + mutagen on 1-s MP3s), with `metadata_to_use "+comment"`.
// mpd also lists hidden files, which Aubade skips: their lines are left out here. Times,
// formats and durations are left out. Where mpd's order is the order readdir happened to
// give (playlist files), Aubade's (by name) is written instead, and said so.
enum MPDReference {
    /// Every song and its tags as mpd read them.
    static let songs: [(String, [(String, String)])] = [
        (" space.mp3", []),
        ("_under.mp3", []),
        ("-dash.mp3", []),
        ("!bang.mp3", []),
        ("(paren).mp3", []),
        ("10.mp3", []),
        ("9.mp3", []),
        ("a b.mp3", []),
        ("a_b.mp3", []),
        ("a-b.mp3", []),
        ("A.b.mp3", []),
        ("a.mp3", []),
        ("ä.mp3", []),
        ("a1.mp3", []),
        ("a10.mp3", []),
        ("a2.mp3", []),
        ("ab.mp3", []),
        ("B.mp3", []),
        ("e.mp3", []),
        ("E.mp3", []),
        ("é.mp3", []),
        ("f.mp3", []),
        ("zebra.mp3", []),
        ("Zebra.mp3", []),
        ("zz.mp3", []),
        ("tagged3.mp3", [("Artist", "Zed"), ("AlbumArtist", "Various"), ("Title", "T3"), ("Album", "Ä"), ("Date", "1999")]),
        ("tagged2.mp3", [("Artist", "art one"), ("Title", "T2"), ("Album", "b"), ("Track", "1"), ("Date", "2001-05-02"), ("Genre", "rock")]),
        ("tagged1.mp3", [("Artist", "Art One"), ("Title", "T1"), ("Album", "B"), ("Track", "2"), ("Date", "2001"), ("Genre", "Rock")]),
        ("10/x.mp3", [("Title", "in 10")]),
        ("9/x.mp3", [("Title", "in 9")]),
        ("a b/x.mp3", [("Title", "in a b")]),
        ("a_b/x.mp3", [("Title", "in a_b")]),
        ("a-b/x.mp3", [("Title", "in a-b")]),
        ("a.b/x.mp3", [("Title", "in a.b")]),
        ("ab c/x.mp3", [("Title", "in ab c")]),
        ("abc/x.mp3", [("Title", "in abc")]),
        ("ABC/x.mp3", [("Title", "in ABC")]),
        ("äbc/x.mp3", [("Title", "in äbc")]),
        ("abc d/x.mp3", [("Title", "in abc d")]),
        ("Abd/x.mp3", [("Title", "in Abd")]),
        ("Album/08.mp3", [("Artist", "Y"), ("Title", "noalbum"), ("Track", "5")]),
        ("Album/07.mp3", [("Artist", "Y"), ("Title", "lower alb"), ("Album", "alb"), ("Track", "1")]),
        ("Album/05.mp3", [("Artist", "X"), ("Title", "notrack"), ("Album", "Alb")]),
        ("Album/06.mp3", [("Artist", "X"), ("Title", "track0"), ("Album", "Alb")]),
        ("Album/10.mp3", [("Artist", "X"), ("Title", "neg"), ("Album", "Alb")]),
        ("Album/04.mp3", [("Artist", "X"), ("Title", "t3of12"), ("Album", "Alb"), ("Track", "3"), ("Date", "2005")]),
        ("Album/09.mp3", [("Artist", "X"), ("Title", "d1of2t1"), ("Album", "Alb"), ("Track", "1"), ("Disc", "1")]),
        ("Album/02.mp3", [("Artist", "X"), ("Title", "d1t2"), ("Album", "Alb"), ("Track", "2"), ("Date", "2005"), ("Disc", "1")]),
        ("Album/12.mp3", [("Artist", "X"), ("Title", "dup d1t2 b"), ("Album", "Alb"), ("Track", "2"), ("Disc", "1")]),
        ("Album/03.mp3", [("Artist", "X"), ("Title", "d1t10"), ("Album", "Alb"), ("Track", "10"), ("Date", "2005"), ("Disc", "1")]),
        ("Album/01.mp3", [("Artist", "X"), ("Title", "d2t1"), ("Album", "Alb"), ("Track", "1"), ("Date", "2005"), ("Disc", "2")]),
        ("Album/11.mp3", [("Artist", "X"), ("Title", "umlaut alb"), ("Album", "Älb"), ("Track", "1")]),
        ("Multi/aaa.mp3", [("Title", "ZZZ name")]),
        ("Multi/m7.mp3", [("Artist", "Commenter"), ("Title", "comment"), ("Comment", "hello world")]),
        ("Multi/m1.mp3", [("Artist", "P"), ("Artist", "Q"), ("AlbumArtist", "AA"), ("Title", "two artists"), ("Album", "MA"), ("Date", "2010"), ("Genre", "Jazz"), ("Genre", "Blues")]),
        ("Multi/m5.mp3", [("Artist", "P"), ("AlbumArtist", "ZZ"), ("Title", "same album diff aa"), ("Album", "MA"), ("Date", "2010")]),
        ("Multi/m6.mp3", [("Artist", "P"), ("AlbumArtist", "AA"), ("Title", "empty date"), ("Album", "MA")]),
        ("Multi/m2.mp3", [("Artist", "R"), ("AlbumArtist", "BB"), ("Title", "aa only"), ("Album", "MB"), ("Date", "2011")]),
        ("Multi/m3.mp3", [("Artist", "CC"), ("Title", "artist only"), ("Album", "MB"), ("Date", "2011")]),
        ("Multi/m4.mp3", [("Title", "neither"), ("Album", "MC")]),
        ("Multi/Sub/s1.mp3", [("Artist", "P"), ("AlbumArtist", "AA"), ("Title", "sub song"), ("Album", "MA"), ("Date", "2010")]),
        ("Multi/Sub/Deeper/s2.mp3", [("Artist", "Q"), ("Title", "deeper")]),
        ("zeta/x.mp3", [("Title", "in zeta")]),
        ("Zeta/x.mp3", [("Title", "in Zeta")]),
    ]

    static let playlists = ["list.m3u", "Alist.m3u", "other.pls", "Multi/mlist.m3u", "onlylist/p.m3u"]
    /// Not music: a folder holding only these is pruned, as an empty one.
    static let otherFiles = ["onlytext/readme.txt", ".hidden.mp3", ".hiddendir/x.mp3"]
    static let emptyFolders = ["emptydir"]

    /// `listall` (playlists of the root in Aubade's order)
    static let listall = """
file:  space.mp3
file: _under.mp3
file: -dash.mp3
file: !bang.mp3
file: (paren).mp3
file: 10.mp3
file: 9.mp3
file: a b.mp3
file: a_b.mp3
file: a-b.mp3
file: A.b.mp3
file: a.mp3
file: ä.mp3
file: a1.mp3
file: a10.mp3
file: a2.mp3
file: ab.mp3
file: B.mp3
file: e.mp3
file: E.mp3
file: é.mp3
file: f.mp3
file: zebra.mp3
file: Zebra.mp3
file: zz.mp3
file: tagged3.mp3
file: tagged2.mp3
file: tagged1.mp3
playlist: Alist.m3u
playlist: list.m3u
playlist: other.pls
directory: 10
file: 10/x.mp3
directory: 9
file: 9/x.mp3
directory: a b
file: a b/x.mp3
directory: a_b
file: a_b/x.mp3
directory: a-b
file: a-b/x.mp3
directory: a.b
file: a.b/x.mp3
directory: ab c
file: ab c/x.mp3
directory: abc
file: abc/x.mp3
directory: ABC
file: ABC/x.mp3
directory: äbc
file: äbc/x.mp3
directory: abc d
file: abc d/x.mp3
directory: Abd
file: Abd/x.mp3
directory: Album
file: Album/08.mp3
file: Album/07.mp3
file: Album/05.mp3
file: Album/06.mp3
file: Album/10.mp3
file: Album/04.mp3
file: Album/09.mp3
file: Album/02.mp3
file: Album/12.mp3
file: Album/03.mp3
file: Album/01.mp3
file: Album/11.mp3
directory: Multi
file: Multi/aaa.mp3
file: Multi/m7.mp3
file: Multi/m1.mp3
file: Multi/m5.mp3
file: Multi/m6.mp3
file: Multi/m2.mp3
file: Multi/m3.mp3
file: Multi/m4.mp3
playlist: Multi/mlist.m3u
directory: Multi/Sub
file: Multi/Sub/s1.mp3
directory: Multi/Sub/Deeper
file: Multi/Sub/Deeper/s2.mp3
directory: onlylist
playlist: onlylist/p.m3u
directory: zeta
file: zeta/x.mp3
directory: Zeta
file: Zeta/x.mp3
"""

    /// `lsinfo` (playlists of the root in Aubade's order)
    static let lsinfoRoot = """
file:  space.mp3
file: _under.mp3
file: -dash.mp3
file: !bang.mp3
file: (paren).mp3
file: 10.mp3
file: 9.mp3
file: a b.mp3
file: a_b.mp3
file: a-b.mp3
file: A.b.mp3
file: a.mp3
file: ä.mp3
file: a1.mp3
file: a10.mp3
file: a2.mp3
file: ab.mp3
file: B.mp3
file: e.mp3
file: E.mp3
file: é.mp3
file: f.mp3
file: zebra.mp3
file: Zebra.mp3
file: zz.mp3
file: tagged3.mp3
file: tagged2.mp3
file: tagged1.mp3
playlist: Alist.m3u
playlist: list.m3u
playlist: other.pls
directory: 10
directory: 9
directory: a b
directory: a_b
directory: a-b
directory: a.b
directory: ab c
directory: abc
directory: ABC
directory: äbc
directory: abc d
directory: Abd
directory: Album
directory: Multi
directory: onlylist
directory: zeta
directory: Zeta
"""

    /// `listallinfo Multi`
    static let listallinfoMulti = """
directory: Multi
file: Multi/aaa.mp3
Title: ZZZ name
file: Multi/m7.mp3
Artist: Commenter
Title: comment
Comment: hello world
file: Multi/m1.mp3
Artist: P
Artist: Q
AlbumArtist: AA
Title: two artists
Album: MA
Date: 2010
Genre: Jazz
Genre: Blues
file: Multi/m5.mp3
Artist: P
AlbumArtist: ZZ
Title: same album diff aa
Album: MA
Date: 2010
file: Multi/m6.mp3
Artist: P
AlbumArtist: AA
Title: empty date
Album: MA
file: Multi/m2.mp3
Artist: R
AlbumArtist: BB
Title: aa only
Album: MB
Date: 2011
file: Multi/m3.mp3
Artist: CC
Title: artist only
Album: MB
Date: 2011
file: Multi/m4.mp3
Title: neither
Album: MC
playlist: Multi/mlist.m3u
directory: Multi/Sub
file: Multi/Sub/s1.mp3
Artist: P
AlbumArtist: AA
Title: sub song
Album: MA
Date: 2010
directory: Multi/Sub/Deeper
file: Multi/Sub/Deeper/s2.mp3
Artist: Q
Title: deeper
"""

    /// `lsinfo Album` (tags only)
    static let lsinfoAlbum = """
file: Album/08.mp3
Artist: Y
Title: noalbum
Track: 5
file: Album/07.mp3
Artist: Y
Title: lower alb
Album: alb
Track: 1
file: Album/05.mp3
Artist: X
Title: notrack
Album: Alb
file: Album/06.mp3
Artist: X
Title: track0
Album: Alb
file: Album/10.mp3
Artist: X
Title: neg
Album: Alb
file: Album/04.mp3
Artist: X
Title: t3of12
Album: Alb
Track: 3
Date: 2005
file: Album/09.mp3
Artist: X
Title: d1of2t1
Album: Alb
Track: 1
Disc: 1
file: Album/02.mp3
Artist: X
Title: d1t2
Album: Alb
Track: 2
Date: 2005
Disc: 1
file: Album/12.mp3
Artist: X
Title: dup d1t2 b
Album: Alb
Track: 2
Disc: 1
file: Album/03.mp3
Artist: X
Title: d1t10
Album: Alb
Track: 10
Date: 2005
Disc: 1
file: Album/01.mp3
Artist: X
Title: d2t1
Album: Alb
Track: 1
Date: 2005
Disc: 2
file: Album/11.mp3
Artist: X
Title: umlaut alb
Album: Älb
Track: 1
"""

    /// Queries and their answers (`find`/`search`: the `file:` lines only).
    static let queries: [(String, String)] = [
        (#"list album"#, """
        Album: 
        Album: Alb
        Album: B
        Album: MA
        Album: MB
        Album: MC
        Album: alb
        Album: b
        Album: Ä
        Album: Älb
        """),
        (#"list album group albumartist"#, """
        AlbumArtist: 
        Album: 
        Album: MC
        AlbumArtist: AA
        Album: MA
        AlbumArtist: Art One
        Album: B
        AlbumArtist: BB
        Album: MB
        AlbumArtist: CC
        Album: MB
        AlbumArtist: Commenter
        Album: 
        AlbumArtist: Q
        Album: 
        AlbumArtist: Various
        Album: Ä
        AlbumArtist: X
        Album: Alb
        Album: Älb
        AlbumArtist: Y
        Album: 
        Album: alb
        AlbumArtist: ZZ
        Album: MA
        AlbumArtist: art one
        Album: b
        """),
        (#"list date group album group albumartist"#, """
        AlbumArtist: 
        Album: 
        Date: 
        Album: MC
        Date: 
        AlbumArtist: AA
        Album: MA
        Date: 
        Date: 2010
        AlbumArtist: Art One
        Album: B
        Date: 2001
        AlbumArtist: BB
        Album: MB
        Date: 2011
        AlbumArtist: CC
        Album: MB
        Date: 2011
        AlbumArtist: Commenter
        Album: 
        Date: 
        AlbumArtist: Q
        Album: 
        Date: 
        AlbumArtist: Various
        Album: Ä
        Date: 1999
        AlbumArtist: X
        Album: Alb
        Date: 
        Date: 2005
        Album: Älb
        Date: 
        AlbumArtist: Y
        Album: 
        Date: 
        Album: alb
        Date: 
        AlbumArtist: ZZ
        Album: MA
        Date: 2010
        AlbumArtist: art one
        Album: b
        Date: 2001-05-02
        """),
        (#"list artist"#, """
        Artist: 
        Artist: Art One
        Artist: CC
        Artist: Commenter
        Artist: P
        Artist: Q
        Artist: R
        Artist: X
        Artist: Y
        Artist: Zed
        Artist: art one
        """),
        (#"list genre"#, """
        Genre: 
        Genre: Blues
        Genre: Jazz
        Genre: Rock
        Genre: rock
        """),
        (#"list albumartistsort"#, """
        AlbumArtistSort: 
        AlbumArtistSort: AA
        AlbumArtistSort: Art One
        AlbumArtistSort: BB
        AlbumArtistSort: CC
        AlbumArtistSort: Commenter
        AlbumArtistSort: Q
        AlbumArtistSort: Various
        AlbumArtistSort: X
        AlbumArtistSort: Y
        AlbumArtistSort: ZZ
        AlbumArtistSort: art one
        """),
        (#"count group albumartist"#, """
        AlbumArtist: 
        songs: 41
        playtime: 42
        AlbumArtist: AA
        songs: 3
        playtime: 3
        AlbumArtist: Art One
        songs: 1
        playtime: 1
        AlbumArtist: BB
        songs: 1
        playtime: 1
        AlbumArtist: CC
        songs: 1
        playtime: 1
        AlbumArtist: Commenter
        songs: 1
        playtime: 1
        AlbumArtist: Q
        songs: 1
        playtime: 1
        AlbumArtist: Various
        songs: 1
        playtime: 1
        AlbumArtist: X
        songs: 10
        playtime: 10
        AlbumArtist: Y
        songs: 2
        playtime: 2
        AlbumArtist: ZZ
        songs: 1
        playtime: 1
        AlbumArtist: art one
        songs: 1
        playtime: 1
        """),
        (#"find "(genre != 'Jazz')""#, """
        file:  space.mp3
        file: _under.mp3
        file: -dash.mp3
        file: !bang.mp3
        file: (paren).mp3
        file: 10.mp3
        file: 9.mp3
        file: a b.mp3
        file: a_b.mp3
        file: a-b.mp3
        file: A.b.mp3
        file: a.mp3
        file: ä.mp3
        file: a1.mp3
        file: a10.mp3
        file: a2.mp3
        file: ab.mp3
        file: B.mp3
        file: e.mp3
        file: E.mp3
        file: é.mp3
        file: f.mp3
        file: zebra.mp3
        file: Zebra.mp3
        file: zz.mp3
        file: tagged3.mp3
        file: tagged2.mp3
        file: tagged1.mp3
        file: 10/x.mp3
        file: 9/x.mp3
        file: a b/x.mp3
        file: a_b/x.mp3
        file: a-b/x.mp3
        file: a.b/x.mp3
        file: ab c/x.mp3
        file: abc/x.mp3
        file: ABC/x.mp3
        file: äbc/x.mp3
        file: abc d/x.mp3
        file: Abd/x.mp3
        file: Album/08.mp3
        file: Album/07.mp3
        file: Album/05.mp3
        file: Album/06.mp3
        file: Album/10.mp3
        file: Album/04.mp3
        file: Album/09.mp3
        file: Album/02.mp3
        file: Album/12.mp3
        file: Album/03.mp3
        file: Album/01.mp3
        file: Album/11.mp3
        file: Multi/aaa.mp3
        file: Multi/m7.mp3
        file: Multi/m5.mp3
        file: Multi/m6.mp3
        file: Multi/m2.mp3
        file: Multi/m3.mp3
        file: Multi/m4.mp3
        file: Multi/Sub/s1.mp3
        file: Multi/Sub/Deeper/s2.mp3
        file: zeta/x.mp3
        file: Zeta/x.mp3
        """),
        (#"search "(album contains 'LB')""#, """
        file: Album/07.mp3
        file: Album/05.mp3
        file: Album/06.mp3
        file: Album/10.mp3
        file: Album/04.mp3
        file: Album/09.mp3
        file: Album/02.mp3
        file: Album/12.mp3
        file: Album/03.mp3
        file: Album/01.mp3
        file: Album/11.mp3
        """),
        (#"find "(albumartistsort == 'AA')""#, """
        file: Multi/m1.mp3
        file: Multi/m6.mp3
        file: Multi/Sub/s1.mp3
        """),
        (#"search any zzz"#, """
        file: Multi/aaa.mp3
        """),
        (#"find "(artist == 'X')" sort -track"#, """
        file: Album/03.mp3
        file: Album/04.mp3
        file: Album/02.mp3
        file: Album/12.mp3
        file: Album/09.mp3
        file: Album/01.mp3
        file: Album/11.mp3
        file: Album/05.mp3
        file: Album/06.mp3
        file: Album/10.mp3
        """),
        (#"find "(artist == 'X')" sort title window 2:5"#, """
        file: Album/02.mp3
        file: Album/01.mp3
        file: Album/12.mp3
        """),
        (#"find "(base 'Multi/Sub')""#, """
        file: Multi/Sub/s1.mp3
        file: Multi/Sub/Deeper/s2.mp3
        """),
        (#"search "(title =~ 'D[12]T')""#, """
        file: Album/02.mp3
        file: Album/12.mp3
        file: Album/03.mp3
        file: Album/01.mp3
        """),
        (#"find "(file =~ '^a')""#, """
        file: a b.mp3
        file: a_b.mp3
        file: a-b.mp3
        file: a.mp3
        file: a1.mp3
        file: a10.mp3
        file: a2.mp3
        file: ab.mp3
        file: a b/x.mp3
        file: a_b/x.mp3
        file: a-b/x.mp3
        file: a.b/x.mp3
        file: ab c/x.mp3
        file: abc/x.mp3
        file: abc d/x.mp3
        """),
        (#"find "(!(title contains 'a'))" "(album != '')""#, """
        file: tagged3.mp3
        file: tagged2.mp3
        file: tagged1.mp3
        file: Album/10.mp3
        file: Album/04.mp3
        file: Album/09.mp3
        file: Album/02.mp3
        file: Album/12.mp3
        file: Album/03.mp3
        file: Album/01.mp3
        file: Multi/m4.mp3
        file: Multi/Sub/s1.mp3
        """),
        (#"find "(track == '2')""#, """
        file: tagged1.mp3
        file: Album/02.mp3
        file: Album/12.mp3
        """),
        (#"search "(artistsort == 'art one')""#, """
        file: tagged2.mp3
        file: tagged1.mp3
        """),
        (#"count "(album == 'MA')" group date"#, """
        Date: 
        songs: 1
        playtime: 1
        Date: 2010
        songs: 3
        playtime: 3
        """),
    ]
}
