/* u08: InstanceNorm2d over nested spatial loops with the statistics in double (x[N][C][H][W],
 * fp32 storage), two-pass: mean, then the sum of squared deviations at it. Style: `double`
 * accumulators and casts, as people write norms to be safe; nested h, w loops (the
 * one-thread-per-row split-k fallback takes them: its partials must stay double). */
#include <math.h>

void inorm_f64(int N, int C, int H, int W, float eps, const float x[N][C][H][W], float y[N][C][H][W])
{
#pragma fuse kernel(inorm_f64) parallel(n, c)
	for (int n = 0; n < N; n++)
		for (int c = 0; c < C; c++) {
			double mean = 0.0;
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					mean += (double)x[n][c][h][w];
			mean /= (double)(H * W);
			double var = 0.0;
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					var += ((double)x[n][c][h][w] - mean) * ((double)x[n][c][h][w] - mean);
			var /= (double)(H * W);
			const float inv = (float)(1.0 / sqrt(var + eps));
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					y[n][c][h][w] = (float)((double)x[n][c][h][w] - mean) * inv;
		}
}
