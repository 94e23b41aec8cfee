import MPDProtocol

/// A long answer written a piece at a time as the client reads it (`listallinfo` of 100,000
/// songs, `playlistinfo` of a long queue), so that what waits for a slow reader stays bounded:
/// the connection asks for more only when its output has drained below a mark.
protocol ResponseProducer {
    /// Writes the next part, about `budget` bytes or a little more; true once everything has
    /// been written (the `OK` is the connection's).
    mutating func produce(into writer: inout ResponseWriter, budget: Int) -> Bool
}

/// A producer over any sequence, each element written by `write`.
struct SequenceProducer<Elements: IteratorProtocol>: ResponseProducer {
    private var elements: Elements
    private let write: (inout ResponseWriter, Elements.Element) -> Void

    init(_ elements: Elements, write: @escaping (inout ResponseWriter, Elements.Element) -> Void) {
        self.elements = elements
        self.write = write
    }

    mutating func produce(into writer: inout ResponseWriter, budget: Int) -> Bool {
        let start = writer.bytes.count
        while writer.bytes.count - start < budget {
            guard let element = elements.next() else { return true }
            write(&writer, element)
        }
        return false
    }
}

/// What running a command came to.
enum CommandOutcome {
    /// Done; these lines are its answer (before the `OK` or `list_OK`).
    case answer(ResponseWriter)
    /// Done; its answer is long and comes from this producer.
    case stream(any ResponseProducer)
    case failure(MPDError)
    /// `close`: the connection ends after what was written.
    case close
}
