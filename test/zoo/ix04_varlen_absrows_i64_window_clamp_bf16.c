/* ix04_varlen_absrows_i64_window_clamp_bf16.c: packed varlen prefill with a sliding
 * window (Mistral), bf16, head dim 64, rolling over the keys.
 * Style: absolute token rows, sequence s owns tokens cu_seqlens[s] .. cu_seqlens[s+1]-1
 * (int64 offsets, as torch.cumsum gives them); int64_t sizes and iterators; the window
 * start is a clamped int64_t local, `int64_t lo = t - W + 1; if (lo < cu_seqlens[s]) lo
 * = cu_seqlens[s];`, read as a loop start. The keys count from the sequence's offset as
 * the rows do (k[cu_seqlens[s] + u], u from max(t - W + 1, 0)): tensor-core tiles
 * (refused before, the clamped start read per row). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define HEAD_DIM 64

void swa_varlen(int64_t nseq, int64_t ntok, int64_t H, int64_t W, float scale,
                const int64_t cu_seqlens[nseq + 1],
                const fusecc_bf16 q[ntok][H][HEAD_DIM], const fusecc_bf16 k[ntok][H][HEAD_DIM],
                const fusecc_bf16 v[ntok][H][HEAD_DIM], fusecc_bf16 o[ntok][H][HEAD_DIM])
{
#pragma fuse kernel(swa_varlen) parallel(s, h, t) rolling(u)
    for (int64_t s = 0; s < nseq; s++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
                int64_t lo = t - W + 1;
                if (lo < cu_seqlens[s]) lo = cu_seqlens[s];
                float m = -INFINITY;
                for (int64_t u = lo; u <= t; u++) {
                    float sc = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++)
                        sc += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
                    m = fmaxf(m, sc * scale);
                }
                float z = 0.0f;
                float acc[HEAD_DIM];
                for (int d = 0; d < HEAD_DIM; d++) acc[d] = 0.0f;
                for (int64_t u = lo; u <= t; u++) {
                    float sc = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++)
                        sc += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
                    float p = expf(sc * scale - m);
                    z += p;
                    for (int d = 0; d < HEAD_DIM; d++)
                        acc[d] += p * fusecc_bf16_to_float(v[u][h][d]);
                }
                for (int d = 0; d < HEAD_DIM; d++)
                    o[t][h][d] = fusecc_float_to_bf16(acc[d] / z);
            }
}
