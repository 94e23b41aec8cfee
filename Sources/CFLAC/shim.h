#ifndef AUBADE_CFLAC_SHIM_H
#define AUBADE_CFLAC_SHIM_H
#include <FLAC/stream_decoder.h>
#include <FLAC/metadata.h>
#endif
