/// What the paths above the objects answer (`ObjectTree`).
extension IntrospectionXML {
    static func node(withChildren children: [String]) -> String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
        \(children.map { "  <node name=\"\($0)\"/>" }.joined(separator: "\n"))
        </node>
        """
    }
}

extension IntrospectionXML {
    /// What Introspect answers on the player's path: the MPRIS node with the audio-session
    /// interface (taken from its own file) added before the node closes.
    static let served: String = {
        guard let close = mediaPlayer2.ranges(of: "</node>").last else { return mediaPlayer2 }
        return String(mediaPlayer2[..<close.lowerBound]) + interfaceBlock(of: audioSession)
            + interfaceBlock(of: queue) + mediaPlayer2[close.lowerBound...]
    }()

    /// The `<interface>…</interface>` lines of one of the extension files.
    private static func interfaceBlock(of xml: String) -> Substring {
        guard let start = xml.firstRange(of: "  <interface"),
              let end = xml[start.upperBound...].firstRange(of: "</interface>\n") else { return "" }
        return xml[start.lowerBound..<end.upperBound]
    }
}
