/* pf_chunked_ternary_samechunk_d192_bf16.c: Llama-4 chunked attention, nest style, the
 * chunk as a mask rather than a bound: keys in another chunk are masked with a ternary.
 * #define D 192 (an unusual head dim people do try), bf16, two-pass with a probability
 * buffer; run-time CHUNK, an `int same_chunk` local. The key range is
 * [i / CHUNK * CHUNK, i + 1): the CTA skips the other chunks. */
#include <math.h>
#include "fusecc.h"

#define D 192

void chunk_mask_attn(int B, int H, int N, int CHUNK, float scale,
                     const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
                     const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(chunk_mask_attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float p[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    float dot = 0.0f;
                    for (int d = 0; d < D; d++)
                        dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                    int same_chunk = (j / CHUNK) == (i / CHUNK);
                    p[j] = (same_chunk && j <= i) ? dot * scale : -INFINITY;
                    m = fmaxf(m, p[j]);
                }
                float l = 0.0f;
                for (int j = 0; j < N; j++) {
                    p[j] = expf(p[j] - m);
                    l += p[j];
                }
                for (int d = 0; d < D; d++) {
                    float acc = 0.0f;
                    for (int j = 0; j < N; j++)
                        acc += p[j] * fusecc_bf16_to_float(v[b][h][j][d]);
                    o[b][h][i][d] = fusecc_float_to_bf16(acc / l);
                }
            }
}
