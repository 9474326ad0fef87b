/* pf_quiet_online_ifelse_updates_m0_l1_causal_d96_fp32: "softmax off by one" (Evan Miller's
 * quiet attention): the online softmax seeded m = 0, l = 1 (the implicit zero logit), with
 * the updates written inside both arms: `if (s > m) { c = expf(m - s); l = l * c + 1;
 * acc[d] = acc[d] * c + v[j][d]; m = s; } else { p = expf(s - m); l += p; acc[d] += p * v[j][d]; }`.
 * Causal, fp32 q/k/v, head dim 96. Style: a blog post's C reference. */
#include <math.h>
#define HD 96
void quiet_attn(int H, int N, float scale, const float q[H][N][HD], const float k[H][N][HD],
                const float v[H][N][HD], float o[H][N][HD])
{
#pragma fuse kernel(quiet_attn) parallel(h, i) rolling(j)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < N; i++) {
        float m = 0.0f, l = 1.0f;
        float acc[HD];
        for (int d = 0; d < HD; d++) acc[d] = 0.0f;
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int d = 0; d < HD; d++) s += q[h][i][d] * k[h][j][d];
            s *= scale;
            if (s > m) {
                float c = expf(m - s);
                l = l * c + 1.0f;
                for (int d = 0; d < HD; d++) acc[d] = acc[d] * c + v[h][j][d];
                m = s;
            } else {
                float p = expf(s - m);
                l += p;
                for (int d = 0; d < HD; d++) acc[d] += p * v[h][j][d];
            }
        }
        for (int d = 0; d < HD; d++) o[h][i][d] = acc[d] / l;
    }
}
