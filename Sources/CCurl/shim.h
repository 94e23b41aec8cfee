#ifndef AUBADE_CCURL_SHIM_H
#define AUBADE_CCURL_SHIM_H
// libcurl for CurlKit: loaded at first use, its variadic functions given fixed signatures.
#include <sys/types.h>
#include <sys/prctl.h>
#include <dlfcn.h>
#include <curl/curl.h>

// libcurl is loaded when the first stream is played (dlopen, in CurlKit's CurlLibrary), not
// linked: with its TLS stack (OpenSSL, GnuTLS, p11-kit, Kerberos…) it costs a daemon about
// 5 MB of resident memory, which one that plays local files never needs. Every function
// CurlKit calls is reached through the address dlsym gave: these wrappers take it first
// (`fn`) and call it with C's types — the only way for curl_easy_setopt and curl_easy_getinfo,
// which are variadic (Swift cannot call those), each argument type getting its own wrapper.
#define AUBADE_CURL_CALL(type, fn) ((type)(fn))

static inline CURLcode aubade_curl_global_init_via(void *fn, long flags) {
    return AUBADE_CURL_CALL(CURLcode (*)(long), fn)(flags);
}
static inline CURL *aubade_curl_easy_init_via(void *fn) { return AUBADE_CURL_CALL(CURL *(*)(void), fn)(); }
static inline void aubade_curl_easy_cleanup_via(void *fn, CURL *easy) { AUBADE_CURL_CALL(void (*)(CURL *), fn)(easy); }
static inline CURLcode aubade_curl_easy_pause_via(void *fn, CURL *easy, int mask) {
    return AUBADE_CURL_CALL(CURLcode (*)(CURL *, int), fn)(easy, mask);
}
static inline const char *aubade_curl_easy_strerror_via(void *fn, CURLcode code) {
    return AUBADE_CURL_CALL(const char *(*)(CURLcode), fn)(code);
}
static inline const struct curl_easyoption *aubade_curl_easy_option_by_id_via(void *fn, CURLoption option) {
    return AUBADE_CURL_CALL(const struct curl_easyoption *(*)(CURLoption), fn)(option);
}
static inline CURLM *aubade_curl_multi_init_via(void *fn) { return AUBADE_CURL_CALL(CURLM *(*)(void), fn)(); }
static inline CURLMcode aubade_curl_multi_cleanup_via(void *fn, CURLM *multi) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *), fn)(multi);
}
static inline CURLMcode aubade_curl_multi_add_handle_via(void *fn, CURLM *multi, CURL *easy) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *, CURL *), fn)(multi, easy);
}
static inline CURLMcode aubade_curl_multi_remove_handle_via(void *fn, CURLM *multi, CURL *easy) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *, CURL *), fn)(multi, easy);
}
static inline CURLMcode aubade_curl_multi_perform_via(void *fn, CURLM *multi, int *running) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *, int *), fn)(multi, running);
}
static inline CURLMcode aubade_curl_multi_poll_via(void *fn, CURLM *multi, struct curl_waitfd *extra, unsigned int count,
                                                   int timeout, int *ready) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *, struct curl_waitfd *, unsigned int, int, int *), fn)(multi, extra, count, timeout, ready);
}
static inline CURLMcode aubade_curl_multi_wakeup_via(void *fn, CURLM *multi) {
    return AUBADE_CURL_CALL(CURLMcode (*)(CURLM *), fn)(multi);
}
static inline CURLMsg *aubade_curl_multi_info_read_via(void *fn, CURLM *multi, int *left) {
    return AUBADE_CURL_CALL(CURLMsg *(*)(CURLM *, int *), fn)(multi, left);
}
static inline const char *aubade_curl_multi_strerror_via(void *fn, CURLMcode code) {
    return AUBADE_CURL_CALL(const char *(*)(CURLMcode), fn)(code);
}
static inline struct curl_slist *aubade_curl_slist_append_via(void *fn, struct curl_slist *list, const char *text) {
    return AUBADE_CURL_CALL(struct curl_slist *(*)(struct curl_slist *, const char *), fn)(list, text);
}
static inline void aubade_curl_slist_free_all_via(void *fn, struct curl_slist *list) {
    AUBADE_CURL_CALL(void (*)(struct curl_slist *), fn)(list);
}

typedef size_t (*aubade_curl_data_callback)(char *data, size_t size, size_t count, void *user);
typedef CURLcode (*aubade_curl_setopt)(CURL *, CURLoption, ...);
typedef CURLcode (*aubade_curl_getinfo)(CURL *, CURLINFO, ...);

static inline CURLcode aubade_curl_easy_setopt_long_via(void *fn, CURL *easy, CURLoption option, long value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_pointer_via(void *fn, CURL *easy, CURLoption option, void *value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_string_via(void *fn, CURL *easy, CURLoption option, const char *value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_off_t_via(void *fn, CURL *easy, CURLoption option, curl_off_t value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_data_callback_via(void *fn, CURL *easy, CURLoption option,
                                                                 aubade_curl_data_callback value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_setopt_opensocket_callback_via(void *fn, CURL *easy, CURLoption option,
                                                                      curl_opensocket_callback value) {
    return AUBADE_CURL_CALL(aubade_curl_setopt, fn)(easy, option, value);
}
static inline CURLcode aubade_curl_easy_getinfo_long_via(void *fn, CURL *easy, CURLINFO info, long *value) {
    return AUBADE_CURL_CALL(aubade_curl_getinfo, fn)(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_string_via(void *fn, CURL *easy, CURLINFO info, const char **value) {
    return AUBADE_CURL_CALL(aubade_curl_getinfo, fn)(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_off_t_via(void *fn, CURL *easy, CURLINFO info, curl_off_t *value) {
    return AUBADE_CURL_CALL(aubade_curl_getinfo, fn)(easy, info, value);
}
static inline CURLcode aubade_curl_easy_getinfo_double_via(void *fn, CURL *easy, CURLINFO info, double *value) {
    return AUBADE_CURL_CALL(aubade_curl_getinfo, fn)(easy, info, value);
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
