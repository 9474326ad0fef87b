/* u07: InstanceNorm2d statistics over nested spatial loops (x[rows][C][H][W]: the batch is
 * `rows`), two-pass, fp32. Style: nested h, w loops (written for the one-thread-per-row
 * fallback; the GPU now reads them as one loop over h * W + w, one CTA per row), an unused
 * `blocks` count and the output named `row`: names of the launchers and kernels. */
#include <math.h>

void inorm_names(int rows, int C, int H, int W, int blocks, float eps, const float x[rows][C][H][W], float row[rows][C][H][W])
{
#pragma fuse kernel(inorm_names) parallel(n, c)
	for (int n = 0; n < rows; n++)
		for (int c = 0; c < C; c++) {
			float mean = 0.0f;
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					mean += x[n][c][h][w];
			mean /= (float)(H * W);
			float var = 0.0f;
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					var += (x[n][c][h][w] - mean) * (x[n][c][h][w] - mean);
			var /= (float)(H * W);
			float inv = 1.0f / sqrtf(var + eps + (float)(blocks - blocks));
			for (int h = 0; h < H; h++)
				for (int w = 0; w < W; w++)
					row[n][c][h][w] = (x[n][c][h][w] - mean) * inv;
		}
}
