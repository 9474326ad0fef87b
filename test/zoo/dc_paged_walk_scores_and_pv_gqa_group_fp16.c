/* dc_paged_walk_scores_and_pv_gqa_group_fp16.c: paged decode, GQA (the KV
 * head's query heads as a loop inside it), fp16, head dim 128, page size 32, every page
 * full, page count per sequence from an int32 array, no clause (fusecc picks).
 * Style: a student's port of a textbook paged attention: both the scores and the P.V
 * walk the pages (`for (pg < n_pages[b]) for (slot < 32)`), the score index spelled
 * `pg * 32 + slot`; a separate softmax loop over `n_pages[b] * 32` in between. */
#include <math.h>
#include <stdint.h>
void paged_gqa_decode(int B, int KVH, int G, int MAXP, int NP, const int32_t n_pages[B], const int32_t pages[B][MAXP],
                      const _Float16 q[B][KVH][G][128], const _Float16 kc[NP][32][KVH][128],
                      const _Float16 vc[NP][32][KVH][128], float scale, _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(paged_gqa_decode) parallel(b, kh, g)
    for (int b = 0; b < B; b++)
        for (int kh = 0; kh < KVH; kh++)
            for (int g = 0; g < G; g++) {
                float sc[MAXP * 32];
                float mx = -INFINITY;
                for (int pg = 0; pg < n_pages[b]; pg++)
                    for (int slot = 0; slot < 32; slot++) {
                        float dot = 0.0f;
                        for (int d = 0; d < 128; d++)
                            dot += (float)q[b][kh][g][d] * (float)kc[pages[b][pg]][slot][kh][d];
                        sc[pg * 32 + slot] = dot * scale;
                        mx = fmaxf(mx, dot * scale);
                    }
                float l = 0.0f;
                for (int t = 0; t < n_pages[b] * 32; t++) {
                    sc[t] = expf(sc[t] - mx);
                    l += sc[t];
                }
                float acc[128];
                for (int d = 0; d < 128; d++) acc[d] = 0.0f;
                for (int pg = 0; pg < n_pages[b]; pg++)
                    for (int slot = 0; slot < 32; slot++)
                        for (int d = 0; d < 128; d++)
                            acc[d] += sc[pg * 32 + slot] * (float)vc[pages[b][pg]][slot][kh][d];
                for (int d = 0; d < 128; d++)
                    o[b][kh][g][d] = (_Float16)(acc[d] / l);
            }
}
