// libmicrohttpd 0.9.75 (Debian's libmicrohttpd-dev), for HTTPKit.
//
// Swift cannot call C variadic functions, and MHD_start_daemon, MHD_get_connection_info and
// MHD_set_connection_option are all variadic: each use HTTPKit needs is one typed function
// here, so the options reach MHD with the C types its va_arg reads expect.
// Macros that Swift does not import (MHD_SIZE_UNKNOWN, the content reader's end markers) are
// constants.
#ifndef AUBADE_CMICROHTTPD_SHIM_H
#define AUBADE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

static const uint64_t AUBADE_MHD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
static const ssize_t AUBADE_MHD_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t AUBADE_MHD_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

typedef void *(*aubade_mhd_uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon on a listening socket the caller opened (bound, listening, non-blocking),
/// with the limits HTTPKit's settings give. NULL when libmicrohttpd refuses.
static inline struct MHD_Daemon *aubade_mhd_start(unsigned int flags,
                                                  int listening_socket,
                                                  unsigned int connection_limit,
                                                  unsigned int per_address_limit,
                                                  unsigned int timeout_seconds,
                                                  size_t thread_stack_bytes,
                                                  MHD_AccessHandlerCallback handler,
                                                  MHD_RequestCompletedCallback completed,
                                                  aubade_mhd_uri_logger uri_logger,
                                                  void *context) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listening_socket,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_THREAD_STACK_SIZE, thread_stack_bytes,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, context,
                            MHD_OPTION_END);
}

/// The peer's address (NULL if unknown).
static inline const struct sockaddr *aubade_mhd_peer_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The connection's socket (-1 if unknown).
static inline int aubade_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/// No idle timeout for this connection (an event stream is idle between events by design).
static inline enum MHD_Result aubade_mhd_never_time_out(struct MHD_Connection *connection) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)0);
}
#endif
