/* ix01_vllm_paged_decode_i64_blk_local_fp16.c: paged decode (vLLM v1 cache layout
 * kc[num_blocks][BS][H][HD]), fp16, rolling over the keys, a fixed context length L.
 * Style: the physical block is named in an int64_t local inside each key loop,
 * `const int64_t blk = bt[b][t / BS];`, as a port that follows vLLM's advice to index
 * the cache in 64 bits writes it (int64 block table). The tiles must read it through its
 * definition: the CTA is one row (different sequences have different pages). */
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
        const int64_t blk = bt[b][t / BS];
        float s = 0.0f;
        for (int d = 0; d < HD; d++) s += (float)q[b][h][d] * (float)kc[blk][t % BS][h][d];
        m = fmaxf(m, s * sc);
      }
      float l = 0.0f, acc[HD];
      for (int d = 0; d < HD; d++) acc[d] = 0.0f;
      for (int t = 0; t < L; t++) {
        const int64_t blk = bt[b][t / BS];
        float s = 0.0f;
        for (int d = 0; d < HD; d++) s += (float)q[b][h][d] * (float)kc[blk][t % BS][h][d];
        float p = expf(s * sc - m);
        l += p;
        for (int d = 0; d < HD; d++) acc[d] += p * (float)vc[blk][t % BS][h][d];
      }
      for (int d = 0; d < HD; d++) o[b][h][d] = (_Float16)(acc[d] / l);
    }
}
