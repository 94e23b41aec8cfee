internal import CCurl

extension TransferFailure.Kind {
    /// The kind of failure a transfer's final `CURLcode` stands for.
    init(_ code: CURLcode) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .resolve
        case CURLE_COULDNT_CONNECT:
            self = .connect
        case CURLE_OPERATION_TIMEDOUT:
            self = .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            self = .tls
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects
        // SEND_ERROR too: a reset while the request goes out is the same lost connection.
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR:
            self = .closedEarly
        default:
            self = .other
        }
    }
}

extension TransferFailure {
    /// The failure for a libcurl call that went wrong. A transfer's own result
    /// (`curl_multi_info_read`) is told in libcurl's words alone; a call that failed while
    /// setting the transfer up also names the function, as that is our bug or our refusal.
    init(_ error: CurlCallError, isTransferResult: Bool = false) {
        let kind = error.curlCode.map(Kind.init) ?? .other
        let text = isTransferResult ? error.message : "\(error.function): \(error.message)"
        self.init(kind: kind, message: CredentialRedaction.redacting(text))
    }
}
