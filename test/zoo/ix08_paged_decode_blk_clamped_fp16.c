/* ix08_paged_decode_blk_clamped_fp16.c: paged decode (vLLM v1 cache layout), fp16,
 * rolling over the keys, a fixed context length L.
 * Style: the block number is an int64_t local that the key loop clamps after reading it
 * (`int64_t blk = bt[b][t / BS]; if (blk < 0) blk = 0;`, defensive code against a padded
 * block table). The clamp folds into the local's definition (a ternary), which the
 * tiles' page loaders read (it fell back to one thread per row before session 20). */
#include <math.h>
#include <stdint.h>
#define BS 16
#define HD 128
void dec(int B, int H, int NB, int MAXB, int L, float sc,
         const _Float16 q[B][H][HD], const _Float16 kc[NB][BS][H][HD], const _Float16 vc[NB][BS][H][HD],
         const int64_t bt[B][MAXB], _Float16 o[B][H][HD])
{
#pragma fuse kernel(dec) parallel(b, h) rolling(t)
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      float m = -INFINITY;
      for (int t = 0; t < L; t++) {
        int64_t blk = bt[b][t / BS]; if (blk < 0) blk = 0;
        float s = 0.0f;
        for (int d = 0; d < HD; d++) s += (float)q[b][h][d] * (float)kc[blk][t % BS][h][d];
        m = fmaxf(m, s * sc);
      }
      float l = 0.0f, acc[HD];
      for (int d = 0; d < HD; d++) acc[d] = 0.0f;
      for (int t = 0; t < L; t++) {
        int64_t blk = bt[b][t / BS]; if (blk < 0) blk = 0;
        float s = 0.0f;
        for (int d = 0; d < HD; d++) s += (float)q[b][h][d] * (float)kc[blk][t % BS][h][d];
        float p = expf(s * sc - m);
        l += p;
        for (int d = 0; d < HD; d++) acc[d] += p * (float)vc[blk][t % BS][h][d];
      }
      for (int d = 0; d < HD; d++) o[b][h][d] = (_Float16)(acc[d] / l);
    }
}
