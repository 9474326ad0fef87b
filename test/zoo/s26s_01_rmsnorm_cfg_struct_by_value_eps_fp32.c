/* A C library's norm kernel as a llama.cpp contributor writes it: the row count, width
 * and epsilon in a small config struct passed by value (`struct norm_cfg cfg`), the
 * fields read as loop bounds (cfg.rows, cfg.cols) and in the arithmetic (cfg.eps). */
#include <math.h>

struct norm_cfg {
	int rows;
	int cols;
	float eps;
};

void rms_norm_cfg(struct norm_cfg cfg, const float *x, const float *w, float *y)
{
#pragma fuse kernel(rms_norm_cfg) parallel(r)
	for (int r = 0; r < cfg.rows; r++) {
		float ss = 0.0f;
		for (int c = 0; c < cfg.cols; c++)
			ss += x[r * cfg.cols + c] * x[r * cfg.cols + c];
		const float inv = 1.0f / sqrtf(ss / cfg.cols + cfg.eps);
		for (int c = 0; c < cfg.cols; c++)
			y[r * cfg.cols + c] = x[r * cfg.cols + c] * inv * w[c];
	}
}
