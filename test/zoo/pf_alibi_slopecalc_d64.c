/* pf_alibi_slopecalc_d64.c: ALiBi causal prefill with the slope computed in the loop
 * (slope_h = 2^(-8 (h + 1) / H), the power-of-two head count formula), fp32.
 * Style: `#define D 64`, the slope as a local in the h loop (before the i loop), causal
 * mask as a ternary over the full j range, stored scores, max in its own loop with
 * fmaxf, exp recomputed in the sum and in a j-outer P.V into acc[D]. 2 spaces, rolling(j). */
#include <math.h>

#define D 64

void alibi_slopecalc(int B, int H, int N, float scale,
  const float q[B][H][N][D], const float k[B][H][N][D],
  const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(alibi_slopecalc) parallel(b, h, i) rolling(j)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
      for (int i = 0; i < N; i++) {
        float s[N];
        for (int j = 0; j < N; j++) {
          float dot = 0.0f;
          for (int d = 0; d < D; d++)
            dot += q[b][h][i][d] * k[b][h][j][d];
          float x = dot * scale - slope * (float)(i - j);
          s[j] = j > i ? -INFINITY : x;
        }
        float m = -INFINITY;
        for (int j = 0; j < N; j++)
          m = fmaxf(m, s[j]);
        float l = 0.0f;
        for (int j = 0; j < N; j++)
          l += expf(s[j] - m);
        float acc[D];
        for (int d = 0; d < D; d++)
          acc[d] = 0.0f;
        for (int j = 0; j < N; j++) {
          float e = expf(s[j] - m);
          for (int d = 0; d < D; d++)
            acc[d] += e * v[b][h][j][d];
        }
        for (int d = 0; d < D; d++)
          o[b][h][i][d] = acc[d] / l;
      }
    }
}
