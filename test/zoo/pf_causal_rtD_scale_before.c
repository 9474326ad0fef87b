/* pf_causal_rtD_scale_before.c: causal prefill attention (is_causal=True).
 * Style: fp16 storage / fp32 math, run-time `int D`, the softmax scale computed at the top
 * of the function from D (1/sqrt(D)), triangular domain j <= i, no score buffer: q.k is
 * recomputed in a max pass and in a combined sum + P.V pass (two passes), helper locals
 * qk and e, j-outer P.V into a VLA acc[D]. 2-space indent, capital Q/K/V/O.
 * rolling(j), parallel(b, h, i), no tile clause. */
#include <math.h>

void causal_attn_fp16(int B, int H, int N, int D,
  const _Float16 Q[B][H][N][D], const _Float16 K[B][H][N][D],
  const _Float16 V[B][H][N][D], _Float16 O[B][H][N][D])
{
  const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(causal_attn_fp16) parallel(b, h, i) rolling(j)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < N; i++) {
        float m = -INFINITY;
        for (int j = 0; j <= i; j++) {
          float qk = 0.0f;
          for (int d = 0; d < D; d++)
            qk += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
          m = fmaxf(m, qk * scale);
        }
        float l = 0.0f;
        float acc[D];
        for (int d = 0; d < D; d++)
          acc[d] = 0.0f;
        for (int j = 0; j <= i; j++) {
          float qk = 0.0f;
          for (int d = 0; d < D; d++)
            qk += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
          float e = expf(qk * scale - m);
          l += e;
          for (int d = 0; d < D; d++)
            acc[d] += e * (float)V[b][h][j][d];
        }
        for (int d = 0; d < D; d++)
          O[b][h][i][d] = (_Float16)(acc[d] / l);
      }
}
