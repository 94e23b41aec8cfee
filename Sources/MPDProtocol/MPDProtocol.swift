// The MPD protocol, pure (mpd 0.23's, protocol version 0.23.5): what a client's bytes mean and
// what the answer's bytes are. No sockets, no player, no threads; the server (MPDServer) reads
// lines, runs commands and writes the bytes made here.
//
// The path of a line, and the type for each step:
//   bytes of one line ─ CommandReader ─▶ LineOutcome (.run(CommandBatch), .noidle, .close…)
//   each RequestLine of a batch ─ request() ─▶ MPDRequest (name + arguments, mpd's tokenizer)
//   MPDRequest ─ MPDCommand(_:permissions:) ─▶ a typed command (table, permission, arguments,
//                                               filters), or an MPDError that becomes the ACK
//   the answer ─ ResponseWriter ─▶ bytes (`key: value` lines, songs, status, ACK, OK)
//
// mpd 0.23.12 is the reference: its messages, codes and quirks are kept byte for byte (the tests
// hold the bytes a real mpd answered). Where mpd's behaviour is undefined or would let a client
// hurt the daemon (NaN seek times, expressions nested thousands deep, a regular expression that
// would overflow the stack when compiled), this module refuses and says so in the comment there.
public let mpdProtocolVersion = "0.23.5"
