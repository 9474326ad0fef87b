/* Struct parameters: a config by value whose fields size the arrays (VLA extents) and
 * scale the scores, and a params struct by pointer to const with the output as a pointer
 * field; two functions sharing one struct type (its definition printed once). */
#include <math.h>

struct sm_cfg {
	int rows;
	int cols;
	float scale;
	void *user; /* not read: kept in the definitions */
};

typedef struct {
	const float *x;
	float *y;
	long rows, cols;
} rms_params;

void softmax_scaled(struct sm_cfg cfg, const float x[cfg.rows][cfg.cols], float y[cfg.rows][cfg.cols])
{
#pragma fuse kernel(softmax_scaled) parallel(r)
	for (int r = 0; r < cfg.rows; r++) {
		float m = -INFINITY;
		for (int c = 0; c < cfg.cols; c++)
			m = fmaxf(m, x[r][c] * cfg.scale);
		float s = 0.0f;
		for (int c = 0; c < cfg.cols; c++)
			s += expf(x[r][c] * cfg.scale - m);
		for (int c = 0; c < cfg.cols; c++)
			y[r][c] = expf(x[r][c] * cfg.scale - m) / s;
	}
}

void row_max(struct sm_cfg cfg, const float *x, float *out)
{
#pragma fuse kernel(row_max) parallel(r)
	for (int r = 0; r < cfg.rows; r++) {
		float m = -INFINITY;
		for (int c = 0; c < cfg.cols; c++)
			m = fmaxf(m, x[r * cfg.cols + c]);
		out[r] = m;
	}
}

void rms_norm_p(const rms_params *p, float eps)
{
#pragma fuse kernel(rms_norm_p) parallel(r)
	for (int r = 0; r < p->rows; r++) {
		float ss = 0.0f;
		for (int c = 0; c < p->cols; c++)
			ss += p->x[r * p->cols + c] * p->x[r * p->cols + c];
		const float k = 1.0f / sqrtf(ss / p->cols + eps);
		for (int c = 0; c < p->cols; c++)
			p->y[r * p->cols + c] = p->x[r * p->cols + c] * k;
	}
}
