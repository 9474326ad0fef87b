/* emit_tile.h: the CUDA printer of tile plans (src/lower/tile.h). */
#ifndef FUSECC_EMIT_TILE_H
#define FUSECC_EMIT_TILE_H

#include "../lower/tile.h"

/* emit_gpu.c: the device spelling of a scalar type (__half for _Float16), and the trip
 * count of a grid loop, (hi) or (hi - (lo)). */
const char *gpu_type(ScalarType t);
void print_extent(StrBuf *b, const GridLoop *g, const PrintTarget *t);

/* Dynamic shared memory of the plan's kernel, in bytes. */
int tile_smem_bytes(const TilePlan *tp);
/* The kernel `<region>_kernel`; print_params prints the function's parameters. */
void emit_tile_kernel(StrBuf *out, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool));
/* Split-k: the merge kernel `<region>_merge`, and its threads per CTA. */
void emit_merge_kernel(StrBuf *out, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool));
int tile_merge_threads(const TilePlan *tp);
/* The launcher's block for this region: checks, then the launch with `args`. */
void emit_tile_launch(StrBuf *out, TilePlan *tp, const char *args);

#endif
