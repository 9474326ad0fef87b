/* A branchy online softmax whose accumulator row starts from bias[d], not zeros: the seed
 * would have to be rescaled to the final max as well, which the rewrite does not do for
 * arrays (it was silently dropped before): it must stay refused. */
#include <math.h>
#define HD 96
void quiet_attn(int H, int N, float scale, const float q[H][N][HD], const float k[H][N][HD],
                const float v[H][N][HD], const float bias[HD], float o[H][N][HD])
{
#pragma fuse kernel(quiet_attn) parallel(h, i) rolling(j)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < N; i++) {
        float m = -INFINITY, l = 0.0f;
        float acc[HD];
        for (int d = 0; d < HD; d++) acc[d] = bias[d];
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
