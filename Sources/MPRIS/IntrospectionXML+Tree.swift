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
    /// What Introspect answers on `/org/aubade/Player`: the standard interfaces (as on the
    /// MPRIS object) and Aubade's own interfaces, each taken from its own file in `dbus/`.
    static let aubadePlayer: String = {
        guard let node = mediaPlayer2.firstRange(of: "<node>\n"),
              let mpris = mediaPlayer2.firstRange(of: "  <interface name=\"org.mpris.MediaPlayer2\">") else { return mediaPlayer2 }
        return """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <!-- What Aubade serves on /org/aubade/Player, beside the MPRIS object: its audio session and queue. -->

            """ + mediaPlayer2[node.lowerBound..<mpris.lowerBound] + interfaceBlock(of: audioSession)
            + interfaceBlock(of: queue) + "</node>\n"
    }()

    /// The `<interface>…</interface>` lines of one of the extension files.
    private static func interfaceBlock(of xml: String) -> Substring {
        guard let start = xml.firstRange(of: "  <interface"),
              let end = xml[start.upperBound...].firstRange(of: "</interface>\n") else { return "" }
        return xml[start.lowerBound..<end.upperBound]
    }
}
