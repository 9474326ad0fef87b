/* row_instancenorm_nested_hw_fp32.c: InstanceNorm2d over the spatial dims of x[N][C][H][W],
 * statistics per (n, c), affine per c.
 * Style: nested h, w loops (how people write images), parallel(n, c), two-pass mean and
 * variance with the count H * W, fp32, no strategy. */
#include <math.h>

void instance_norm(int N, int C, int H, int W, float eps, const float x[N][C][H][W],
                   const float gamma[C], const float beta[C], float y[N][C][H][W])
{
#pragma fuse kernel(instance_norm) parallel(n, c)
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++) {
            float sum = 0.0f;
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    sum += x[n][c][h][w];
            float mean = sum / (H * W);
            float sq = 0.0f;
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    sq += (x[n][c][h][w] - mean) * (x[n][c][h][w] - mean);
            float rstd = 1.0f / sqrtf(sq / (H * W) + eps);
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++)
                    y[n][c][h][w] = (x[n][c][h][w] - mean) * rstd * gamma[c] + beta[c];
        }
}
