/* pf_xattn_rows_past_qlen_zeroed_continue_fp16.c: cross-attention over a padded batch with
 * per-sequence query and key lengths (int64): a query row past q_len[b] is zeroed and
 * skipped with `continue`, the others attend to the first kv_len[b] keys. Style: fp16
 * storage, head dim 64 in the types, two passes (max, then exp with P.V), rolling(j).*/
#include <math.h>
#include <stdint.h>
void xattn(int B, int H, int NQ, int NK, const _Float16 q[B][H][NQ][64], const _Float16 k[B][H][NK][64],
           const _Float16 v[B][H][NK][64], const int64_t q_len[B], const int64_t kv_len[B], _Float16 o[B][H][NQ][64])
{
#pragma fuse kernel(xattn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < NQ; i++) {
                if (i >= q_len[b]) {
                    for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)0.0f;
                    continue;
                }
                float m = -INFINITY, l = 0.0f, acc[64] = {0};
                for (int j = 0; j < kv_len[b]; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    m = fmaxf(m, s * 0.125f);
                }
                for (int j = 0; j < kv_len[b]; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    float p = expf(s * 0.125f - m);
                    l += p;
                    for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
                }
                for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
            }
}
