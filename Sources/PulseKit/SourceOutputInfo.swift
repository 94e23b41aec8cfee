internal import CPulse

/// What `pa_context_get_source_output_info_list` reports about one capture stream.
public struct SourceOutputInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    /// Index of the source it records from.
    public var sourceIndex: UInt32
    public var isCorked: Bool
    public var properties: [String: String]

    /// For fakes and tests; real ones come from `Context.sourceOutputs`.
    public init(index: UInt32, name: String = "", sourceIndex: UInt32, isCorked: Bool = false,
                properties: [String: String] = [:]) {
        self.index = index
        self.name = name
        self.sourceIndex = sourceIndex
        self.isCorked = isCorked
        self.properties = properties
    }

    init(_ info: pa_source_output_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        sourceIndex = info.source
        isCorked = info.corked != 0
        properties = Proplist.dictionary(of: info.proplist)
    }
}
