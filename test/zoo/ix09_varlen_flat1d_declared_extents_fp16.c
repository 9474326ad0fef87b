/* ix09_varlen_flat1d_declared_extents_fp16.c: FlashAttention varlen forward (packed
 * batch, cu_seqlens_q / cu_seqlens_k as int32 pointers), fp16, run-time head dim, rolling.
 * Style: q, k, v and out declared as flat 1-D arrays with their total size, `const
 * _Float16 q[TQ * H * D]`, read at `q[((cu_q[b] + i) * H + h) * D + d]`; no subscript
 * names the outermost extent, which the declared size gives (TQ * H * D / (H * D)). */
#include <math.h>
#include <stdint.h>
void varlen_fwd(int batch, int TQ, int TK, int H, int D, float sc,
                const _Float16 q[TQ * H * D], const _Float16 k[TK * H * D], const _Float16 v[TK * H * D],
                const int32_t *cu_q, const int32_t *cu_k, _Float16 out[TQ * H * D])
{
#pragma fuse kernel(varlen_fwd) parallel(b, h, i) rolling(j)
    for (int b = 0; b < batch; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < cu_q[b + 1] - cu_q[b]; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < cu_k[b + 1] - cu_k[b]; j++) {
                    float a = 0.0f;
                    for (int d = 0; d < D; d++)
                        a += (float)q[((cu_q[b] + i) * H + h) * D + d] * (float)k[((cu_k[b] + j) * H + h) * D + d];
                    mx = fmaxf(mx, a * sc);
                }
                float l = 0.0f, acc[D];
                for (int d = 0; d < D; d++) acc[d] = 0.0f;
                for (int j = 0; j < cu_k[b + 1] - cu_k[b]; j++) {
                    float a = 0.0f;
                    for (int d = 0; d < D; d++)
                        a += (float)q[((cu_q[b] + i) * H + h) * D + d] * (float)k[((cu_k[b] + j) * H + h) * D + d];
                    float p = expf(a * sc - mx);
                    l += p;
                    for (int d = 0; d < D; d++)
                        acc[d] += p * (float)v[((cu_k[b] + j) * H + h) * D + d];
                }
                for (int d = 0; d < D; d++)
                    out[((cu_q[b] + i) * H + h) * D + d] = (_Float16)(acc[d] / l);
            }
}
