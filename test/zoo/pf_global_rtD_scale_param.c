/* pf_global_rtD_scale_param.c: unmasked prefill attention, what
 * F.scaled_dot_product_attention(q, k, v) does with no mask.
 * Style: fp32 storage, run-time head dim `int D`, scale passed in as a float, scores
 * kept in a row buffer s[N], max in its own loop (fmaxf from -INFINITY), P.V d-outer with
 * the division at the end, 4-space indent, ++x. rolling(j), parallel(b, h, i),
 * tile(i:128, j:64) given. */
#include <math.h>

void sdpa_global(int B, int H, int N, int D, float scale,
                 const float q[B][H][N][D], const float k[B][H][N][D],
                 const float v[B][H][N][D], float out[B][H][N][D])
{
#pragma fuse kernel(sdpa_global) parallel(b, h, i) tile(i:128, j:64) rolling(j)
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < H; ++h) {
            for (int i = 0; i < N; ++i) {
                float s[N];
                for (int j = 0; j < N; ++j) {
                    float acc = 0.0f;
                    for (int d = 0; d < D; ++d)
                        acc += q[b][h][i][d] * k[b][h][j][d];
                    s[j] = acc * scale;
                }
                float mx = -INFINITY;
                for (int j = 0; j < N; ++j)
                    mx = fmaxf(mx, s[j]);
                float denom = 0.0f;
                for (int j = 0; j < N; ++j)
                    denom += expf(s[j] - mx);
                for (int d = 0; d < D; ++d) {
                    float o = 0.0f;
                    for (int j = 0; j < N; ++j)
                        o += expf(s[j] - mx) * v[b][h][j][d];
                    out[b][h][i][d] = o / denom;
                }
            }
        }
    }
}
