/* cpu_emu/fusecc_tile_cuda.h: what the CTA-per-row and fallback kernels take from
 * include/fusecc_tile_cuda.h, for the CPU emulation (see cuda_runtime.h here): the shared
 * part as it is (fx::cta_sum and the others from include/fusecc_tile_common.h), a warp of
 * 32 lanes, exact exponentials. No tiles. */
#ifndef FUSECC_TILE_CUDA_H
#define FUSECC_TILE_CUDA_H
#define FUSECC_CPU_EMU_WAVE 32
#include "emu_fx.h"
#endif
