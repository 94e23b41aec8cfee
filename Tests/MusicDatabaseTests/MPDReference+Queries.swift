// What mpd 0.23.12 answered on the reference library (see MPDReference.swift).
extension MPDReference {
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
