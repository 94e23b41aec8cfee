#ifndef AUBADE_CPULSE_SHIM_H
#define AUBADE_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>

/* Macros with casts do not import into Swift: re-export them as constants. */
static const uint32_t aubade_pa_invalid_index = PA_INVALID_INDEX;
static const uint32_t aubade_pa_volume_norm = PA_VOLUME_NORM;
static const uint32_t aubade_pa_volume_muted = PA_VOLUME_MUTED;
static const uint32_t aubade_pa_volume_max = PA_VOLUME_MAX;
static const uint64_t aubade_pa_usec_invalid = PA_USEC_INVALID;
static const pa_sample_format_t aubade_pa_sample_s16ne = PA_SAMPLE_S16NE;
static const pa_sample_format_t aubade_pa_sample_float32ne = PA_SAMPLE_FLOAT32NE;

/* pa_sink_port_info.type exists since PulseAudio 14: older headers give 0 (unknown). */
static inline uint32_t aubade_pa_sink_port_type(const pa_sink_port_info *port) {
#if PA_CHECK_VERSION(14, 0, 0)
    return port->type;
#else
    (void) port;
    return 0;
#endif
}
#endif
