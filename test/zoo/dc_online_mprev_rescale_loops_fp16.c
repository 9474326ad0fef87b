/* dc_online_mprev_rescale_loops_fp16.c: decode (one query row per (b, h)) with the online
 * softmax by hand, the other way round: the old max saved (mprev = mx), mx updated in place,
 * the correction applied in loops of its own (den *= corr; o_acc[d] *= corr;) before the
 * additions. fp16 q and cache, #define HD 128, the scale a literal set up before the region.
 * splitk(t), parallel(b, h). */
#include <math.h>
#define HD 128
void decode_online(int B, int H, int L, const _Float16 q[B][H][HD], const _Float16 kc[B][H][L][HD],
                   const _Float16 vc[B][H][L][HD], float out[B][H][HD])
{
  const float scale = 0.08838834764831845f;
#pragma fuse kernel(decode_online) parallel(b, h) splitk(t)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      float mx = -INFINITY, den = 0.0f;
      float o_acc[HD];
      for (int d = 0; d < HD; d++) o_acc[d] = 0.0f;
      for (int t = 0; t < L; t++) {
        float sc = 0.0f;
        for (int d = 0; d < HD; d++) sc += (float)q[b][h][d] * (float)kc[b][h][t][d];
        sc = sc * scale;
        float mprev = mx;
        mx = fmaxf(mx, sc);
        float corr = expf(mprev - mx);
        den *= corr;
        for (int d = 0; d < HD; d++) o_acc[d] *= corr;
        float pr = expf(sc - mx);
        den += pr;
        for (int d = 0; d < HD; d++) o_acc[d] += pr * (float)vc[b][h][t][d];
      }
      for (int d = 0; d < HD; d++) out[b][h][d] = o_acc[d] / den;
    }
}
