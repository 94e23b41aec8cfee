#ifndef AUBADE_COPUSFILE_SHIM_H
#define AUBADE_COPUSFILE_SHIM_H
#include <opusfile.h>
#endif
