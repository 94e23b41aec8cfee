#ifndef AUBADE_CFFMPEG_SHIM_H
#define AUBADE_CFFMPEG_SHIM_H
// FFmpeg 5.1 (Debian 12) for the aubade-ffmpeg helper only: the daemon never links this module
// (it costs +25 MB RSS and 40 ms to load, and its parsers are where hostile files strike).
// Function-like macros (AVERROR, FFERRTAG) and the casts in AV_NOPTS_VALUE do not import into
// Swift: they are re-exported here as constants.
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavutil/pixfmt.h>
#include <libavutil/imgutils.h>

static const int aubade_AVERROR_EOF = AVERROR_EOF;
static const int aubade_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int aubade_AVERROR_EXIT = AVERROR_EXIT;
static const int aubade_AVERROR_ENOMEM = AVERROR(ENOMEM);
static const int aubade_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int64_t aubade_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int aubade_AVSEEK_SIZE = AVSEEK_SIZE;
static const int aubade_AVSEEK_FORCE = AVSEEK_FORCE;

/// AVFormatContext.io_open's type, named so Swift can build one from a capture-free closure.
typedef int (*aubade_io_open)(struct AVFormatContext *s, AVIOContext **pb, const char *url,
                              int flags, AVDictionary **options);

static inline void aubade_set_io_open(AVFormatContext *context, aubade_io_open open) {
    context->io_open = open;
}

/// AVFormatContext.io_close2's type (FFmpeg 5.0+): closes what io_open opened.
typedef int (*aubade_io_close2)(struct AVFormatContext *s, AVIOContext *pb);

static inline void aubade_set_io_close2(AVFormatContext *context, aubade_io_close2 close) {
    context->io_close2 = close;
}

// The helper's process set-up (prctl and syscall are variadic, which Swift cannot call).
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <unistd.h>

/// The helper dies with the daemon that started it (even on kill -9 of the daemon).
static inline int aubade_die_with_parent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}

/// close_range(2) from `first` up (Linux 5.9); -1 when the kernel lacks it.
static inline int aubade_close_from(unsigned int first) {
    return (int)syscall(436 /* SYS_close_range */, first, ~0U, 0);
}
#endif
