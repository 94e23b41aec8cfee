import Foundation

/// A throwaway CA and a server certificate it signed, for 127.0.0.1 and localhost.
enum TestCertificates {
    struct Files {
        var caCertificate: String
        var certificate: String
        var key: String
    }

    static func make(in directory: String) throws -> Files {
        let openssl = "/usr/bin/openssl"
        let ca = directory + "/ca.pem", caKey = directory + "/ca.key"
        let certificate = directory + "/server.pem", key = directory + "/server.key"
        let request = directory + "/server.csr", extensions = directory + "/server.ext"
        // EC keys: much quicker to make than RSA on a busy machine.
        try ChildProcess.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", caKey, "-out", ca, "-days", "2", "-subj", "/CN=Aubade Test CA",
        ])
        try ChildProcess.run(openssl, [
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", request, "-subj", "/CN=localhost",
        ])
        try """
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, IP:127.0.0.1

            """.write(toFile: extensions, atomically: true, encoding: .utf8)
        try ChildProcess.run(openssl, [
            "x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial",
            "-out", certificate, "-days", "2", "-extfile", extensions,
        ])
        return Files(caCertificate: ca, certificate: certificate, key: key)
    }
}
