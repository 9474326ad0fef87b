/* ix07_flat_ptr_prefill_size_t_offsets_fp16.c: non-causal prefill over raw pointers,
 * fp16, head dim 64, rolling over the keys.
 * Style: the row offsets in `const size_t` locals (unsigned 64-bit, the type of
 * tensor.numel() and strides in C ports), `const size_t qoff = ((int64_t)(b * H + h) * N
 * + i) * D;`; subscripts `q[qoff + d]`, `k[koff + d]`. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#define D 64
void attn(int B, int H, int N, float sc, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(attn) parallel(b, h, i) rolling(j)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < N; i++) {
        const size_t qoff = ((int64_t)(b * H + h) * N + i) * D;
        float m = -INFINITY, l = 0.0f, acc[D];
        for (int d = 0; d < D; d++) acc[d] = 0.0f;
        for (int j = 0; j < N; j++) {
          const size_t koff = ((int64_t)(b * H + h) * N + j) * D;
          float s = 0.0f;
          for (int d = 0; d < D; d++) s += (float)q[qoff + d] * (float)k[koff + d];
          m = fmaxf(m, s * sc);
        }
        for (int j = 0; j < N; j++) {
          const size_t koff = ((int64_t)(b * H + h) * N + j) * D;
          float s = 0.0f;
          for (int d = 0; d < D; d++) s += (float)q[qoff + d] * (float)k[koff + d];
          float p = expf(s * sc - m);
          l += p;
          for (int d = 0; d < D; d++) acc[d] += p * (float)v[koff + d];
        }
        for (int d = 0; d < D; d++) o[qoff + d] = (_Float16)(acc[d] / l);
      }
}
