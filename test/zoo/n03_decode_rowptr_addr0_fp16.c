/* n03_decode_rowptr_addr0_fp16.c: single-query decode attention over a [B][H][L][D] cache,
 * fp16, head dim 128, split-k over the cache.
 * Style: the query row taken as a pointer local to its first element, `const _Float16 *qr
 * = &q[b][h][0];`, then read as qr[d]; one-letter names, scores recomputed, the
 * exponentials summed in the P.V pass (j outer). 4-space indent. */
#include <math.h>

#define D 128

void decode_rowptr(int B, int H, int L, float scale,
                   const _Float16 q[B][H][D],
                   const _Float16 kc[B][H][L][D],
                   const _Float16 vc[B][H][L][D],
                   _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_rowptr) parallel(b, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const _Float16 *qr = &q[b][h][0];
            float m = -INFINITY;
            for (int j = 0; j < L; j++) {
                float s = 0.0f;
                for (int d = 0; d < D; d++) s += (float)qr[d] * (float)kc[b][h][j][d];
                m = fmaxf(m, s * scale);
            }
            float l = 0.0f, a[D];
            for (int d = 0; d < D; d++) a[d] = 0.0f;
            for (int j = 0; j < L; j++) {
                float s = 0.0f;
                for (int d = 0; d < D; d++) s += (float)qr[d] * (float)kc[b][h][j][d];
                float p = expf(s * scale - m);
                l += p;
                for (int d = 0; d < D; d++) a[d] += p * (float)vc[b][h][j][d];
            }
            for (int d = 0; d < D; d++) o[b][h][d] = (_Float16)(a[d] / l);
        }
}
