// accept4(2) is a GNU extension: Glibc's Swift module leaves it out. Accepting with
// SOCK_CLOEXEC at once matters: a client's socket must never leak into a child process (the
// FFmpeg helper is spawned from another thread at any moment).
//
// Declared here rather than by including <sys/socket.h> with _GNU_SOURCE: that would define
// fd_set a second time, differently from the module Dispatch imports, which Clang refuses.
// The flags come from Glibc's module on the Swift side (SOCK_CLOEXEC, SOCK_NONBLOCK).
#ifndef AUBADE_CSOCKETS_SHIM_H
#define AUBADE_CSOCKETS_SHIM_H

struct sockaddr;
extern int accept4(int sockfd, struct sockaddr *addr, unsigned int *addrlen, int flags);

static inline int aubade_accept4(int listener, int flags) {
    return accept4(listener, (struct sockaddr *)0, (unsigned int *)0, flags);
}
#endif
