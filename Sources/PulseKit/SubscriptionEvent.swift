internal import CPulse

/// One `pa_context_subscribe` event: what kind of object changed, how, and its index.
public struct SubscriptionEvent: Sendable, Equatable {
    public enum Facility: Sendable, Equatable {
        case sink, source, sinkInput, sourceOutput, module, client, sampleCache, server, card, other
    }
    public enum Kind: Sendable, Equatable { case new, change, remove }

    public var facility: Facility
    public var kind: Kind
    public var index: UInt32

    public init(facility: Facility, kind: Kind, index: UInt32) {
        self.facility = facility
        self.kind = kind
        self.index = index
    }

    init(raw: pa_subscription_event_type_t, index: UInt32) {
        let facility = raw.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = raw.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        self.index = index
        self.kind = switch kind {
        case PA_SUBSCRIPTION_EVENT_NEW.rawValue: .new
        case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue: .remove
        default: .change
        }
        self.facility = switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue: .sink
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: .source
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue: .sinkInput
        case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue: .sourceOutput
        case PA_SUBSCRIPTION_EVENT_MODULE.rawValue: .module
        case PA_SUBSCRIPTION_EVENT_CLIENT.rawValue: .client
        case PA_SUBSCRIPTION_EVENT_SAMPLE_CACHE.rawValue: .sampleCache
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: .server
        case PA_SUBSCRIPTION_EVENT_CARD.rawValue: .card
        default: .other
        }
    }
}

/// Which facilities `Context.subscribe` listens to (`pa_subscription_mask_t`).
public struct SubscriptionMask: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sink = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_SINK.rawValue)
    public static let source = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_SOURCE.rawValue)
    public static let sinkInput = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue)
    public static let sourceOutput = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue)
    public static let server = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_SERVER.rawValue)
    public static let card = SubscriptionMask(rawValue: PA_SUBSCRIPTION_MASK_CARD.rawValue)
}
