// What mpd 0.23.12 listed for the reference library (see MPDReference.swift).
extension MPDReference {
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
}
