/* pf_weights_fp16_buffer_masked_fill_inplace_causal.c: causal attention that returns its
 * weights in fp16, as a port of torch's eager path in half precision: the scores, masked
 * by a key-padding byte mask (masked_fill -inf), are stored rounded to fp16 in w, the max
 * reads them back, w is exponentiated in place (the sum kept in fp32), and the P.V loop
 * normalises each weight, stores it to w and accumulates it (j outer, acc[128]).
 * Style: _Float16 storage, head dim 128 in the types, uint8 mask, rolling(j). */
#include <math.h>
void attn(int B, int H, int N, float scale, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
          const _Float16 v[B][H][N][128], const unsigned char keep[B][N], _Float16 w[B][H][N][N], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < 128; d++)
                        s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    if (!keep[b][j]) s = -INFINITY;
                    w[b][h][i][j] = (_Float16)(s * scale);
                }
                float mx = -INFINITY;
                for (int j = 0; j <= i; j++)
                    mx = fmaxf(mx, (float)w[b][h][i][j]);
                float sum = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float e = expf((float)w[b][h][i][j] - mx);
                    w[b][h][i][j] = (_Float16)e;
                    sum += e;
                }
                float acc[128];
                for (int d = 0; d < 128; d++) acc[d] = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float p = (float)w[b][h][i][j] / sum;
                    w[b][h][i][j] = (_Float16)p;
                    for (int d = 0; d < 128; d++)
                        acc[d] += p * (float)v[b][h][j][d];
                }
                for (int d = 0; d < 128; d++)
                    o[b][h][i][d] = (_Float16)acc[d];
            }
}
