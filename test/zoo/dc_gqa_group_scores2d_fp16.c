/* dc_gqa_group_scores2d_fp16.c: GQA decode, one CTA per (b, kv head), the G query heads of
 * the group processed together as one reads FlashInfer's decode (K/V loaded once per group);
 * the scores of the whole group materialised in one scratch `float p[G][L]` declared before
 * the group loop. fp16, #define D 128, 2-space indent. splitk(j), parallel(b, kh). */
#include <math.h>

#define D 128

void gqa_group_decode(int B, int KVH, int G, int L, float sm_scale,
                      const _Float16 q[B][KVH * G][D],
                      const _Float16 k[B][KVH][L][D],
                      const _Float16 v[B][KVH][L][D],
                      _Float16 o[B][KVH * G][D])
{
#pragma fuse kernel(gqa_group_decode) parallel(b, kh) splitk(j)
  for (int b = 0; b < B; b++)
    for (int kh = 0; kh < KVH; kh++) {
      float p[G][L];
      for (int g = 0; g < G; g++) {
        int hq = kh * G + g;
        float m = -INFINITY;
        for (int j = 0; j < L; j++) {
          float s = 0;
          for (int d = 0; d < D; d++)
            s += (float)q[b][hq][d] * (float)k[b][kh][j][d];
          p[g][j] = s * sm_scale;
          m = fmaxf(m, p[g][j]);
        }
        float sum = 0;
        for (int j = 0; j < L; j++) {
          p[g][j] = expf(p[g][j] - m);
          sum += p[g][j];
        }
        for (int d = 0; d < D; d++) {
          float acc = 0;
          for (int j = 0; j < L; j++)
            acc += p[g][j] * (float)v[b][kh][j][d];
          o[b][hq][d] = (_Float16)(acc / sum);
        }
      }
    }
}
