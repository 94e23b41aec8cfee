#ifndef AUBADE_CVORBISFILE_SHIM_H
#define AUBADE_CVORBISFILE_SHIM_H
#include <vorbis/vorbisfile.h>
#endif
