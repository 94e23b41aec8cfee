#ifndef AUBADE_CCURL_SHIM_H
#define AUBADE_CCURL_SHIM_H
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. These wrappers
// give each argument type its own fixed signature; CurlKit picks the one the option's type
// (CURLOPTTYPE_LONG, _OBJECTPOINT/_STRINGPOINT/_SLISTPOINT, _OFF_T, _FUNCTIONPOINT) calls for.
#include <sys/types.h>
#include <sys/prctl.h>
#include <curl/curl.h>

typedef size_t (*aubade_curl_data_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode aubade_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_data_callback(CURL *easy, CURLoption option,
                                                             aubade_curl_data_callback value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_opensocket_callback(CURL *easy, CURLoption option,
                                                                  curl_opensocket_callback value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode aubade_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_double(CURL *easy, CURLINFO info, double *value) {
    return curl_easy_getinfo(easy, info, value);
}

// The transfer thread's name in gdb and top (prctl is variadic as well).
static inline int aubade_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// Macros that are expressions (or too wide for Swift's importer) re-exported as constants.
static const long aubade_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;
static const int aubade_CURLPAUSE_CONT = CURLPAUSE_CONT;
static const size_t aubade_CURL_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE;
static const size_t aubade_CURL_MAX_WRITE_SIZE = CURL_MAX_WRITE_SIZE;
static const size_t aubade_CURL_ERROR_SIZE = CURL_ERROR_SIZE;

#endif
