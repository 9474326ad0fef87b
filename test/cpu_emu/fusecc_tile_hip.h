/* cpu_emu/fusecc_tile_hip.h: as fusecc_tile_cuda.h here, with a wavefront of 64 lanes. */
#ifndef FUSECC_TILE_HIP_H
#define FUSECC_TILE_HIP_H
#define FUSECC_CPU_EMU_WAVE 64
#include "emu_fx.h"
#endif
