/* pf_weights_buffer_exp_then_normalise_rtD_fp32.c: a port of softmax(QK^T * scale) @ V that
 * keeps the weights: the scores go to the output buffer w, the max is a loop of its own,
 * the buffer is exponentiated in place with the sum, normalised in place (`/= sum`), and
 * P.V reads it. Style: fp32, run-time head dim D and scale, rolling(j). */
#include <math.h>
void eager2(int B, int H, int N, int D, float scale, const float q[B][H][N][D], const float k[B][H][N][D],
            const float v[B][H][N][D], float w[B][H][N][N], float o[B][H][N][D])
{
#pragma fuse kernel(eager2) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < D; d++)
                        s += q[b][h][i][d] * k[b][h][j][d];
                    w[b][h][i][j] = s * scale;
                }
                float mx = -INFINITY;
                for (int j = 0; j < N; j++)
                    mx = fmaxf(mx, w[b][h][i][j]);
                float sum = 0.0f;
                for (int j = 0; j < N; j++) {
                    w[b][h][i][j] = expf(w[b][h][i][j] - mx);
                    sum += w[b][h][i][j];
                }
                for (int j = 0; j < N; j++)
                    w[b][h][i][j] /= sum;
                for (int d = 0; d < D; d++) {
                    float acc = 0.0f;
                    for (int j = 0; j < N; j++)
                        acc += w[b][h][i][j] * v[b][h][j][d];
                    o[b][h][i][d] = acc;
                }
            }
}
