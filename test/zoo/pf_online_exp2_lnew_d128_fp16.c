/* pf_online_exp2_lnew_d128_fp16.c: global prefill with the online softmax by hand in base 2
 * (scores scaled by log2(e), exp2f), the new max as a ternary, the new sum in a local
 * (l_new = alpha * l + p; l = l_new), the rescale factor first (alpha * acc[d]), acc
 * initialised with = {0}. #define HD 128, 2-space indent. rolling(j), parallel(b, h, i). */
#include <math.h>
#define HD 128

void attn_online_exp2(int B, int H, int N, float scale, const _Float16 q[B][H][N][HD], const _Float16 k[B][H][N][HD],
        const _Float16 v[B][H][N][HD], _Float16 o[B][H][N][HD])
{
  const float log2e = 1.4426950408889634f;
#pragma fuse kernel(attn_online_exp2) parallel(b, h, i) rolling(j)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < N; i++) {
        float m = -INFINITY, l = 0.0f;
        float acc[HD] = {0};
        for (int j = 0; j < N; j++) {
          float s = 0.0f;
          for (int d = 0; d < HD; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
          s = s * scale * log2e;
          float m_new = s > m ? s : m;
          float alpha = exp2f(m - m_new);
          float p = exp2f(s - m_new);
          float l_new = alpha * l + p;
          for (int d = 0; d < HD; d++) acc[d] = alpha * acc[d] + p * (float)v[b][h][j][d];
          l = l_new;
          m = m_new;
        }
        for (int d = 0; d < HD; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
      }
}
