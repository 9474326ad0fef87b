/* ggml's online softmax (factors set in the arms, one update after) with the accumulator
 * row seeded from bias[d]: the seed is not rescaled to the final max by the rewrite, so the
 * loop must stay refused (fusecc computed it as if seeded with zeros before). */
#include <math.h>
#define HD 96
void quiet_attn(int H, int N, float scale, const float q[H][N][HD], const float k[H][N][HD],
                const float v[H][N][HD], const float bias[HD], float o[H][N][HD])
{
#pragma fuse kernel(quiet_attn) parallel(h, i) rolling(j)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < N; i++) {
        float m = 0.0f, l = 1.0f;
        float acc[HD];
        for (int d = 0; d < HD; d++) acc[d] = bias[d];
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int d = 0; d < HD; d++) s += q[h][i][d] * k[h][j][d];
            s *= scale;
            float c = 1.0f, p = 1.0f;
            if (s > m) { c = expf(m - s); m = s; }
            else p = expf(s - m);
            l = l * c + p;
            for (int d = 0; d < HD; d++) acc[d] = acc[d] * c + p * v[h][j][d];
        }
        for (int d = 0; d < HD; d++) o[h][i][d] = acc[d] / l;
    }
}
