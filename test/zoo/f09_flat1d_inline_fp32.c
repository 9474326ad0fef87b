/* Flat 1-D tensors with hand-computed row offsets, as a C programmer ports from .data_ptr():
 * q[B*H*N*D], const int row offsets, fp32, run-time D. */
#include <math.h>
void attn_flat(int B, int H, int N, int D, float scale,
               const float q[B * H * N * D], const float k[B * H * N * D],
               const float v[B * H * N * D], float o[B * H * N * D])
{
#pragma fuse kernel(attn_flat) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                
                
                float s[N];
                for (int j = 0; j < N; j++) {
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += q[((b * H + h) * N + i) * D + d] * k[((b * H + h) * N + j) * D + d];
                    s[j] = x * scale;
                }
                float m = -INFINITY;
                for (int j = 0; j < N; j++)
                    m = fmaxf(m, s[j]);
                float l = 0.0f;
                for (int j = 0; j < N; j++)
                    l += expf(s[j] - m);
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++)
                        a += expf(s[j] - m) * v[((b * H + h) * N + j) * D + d];
                    o[((b * H + h) * N + i) * D + d] = a / l;
                }
            }
}
