/* Probe: sizes read from a config struct (llama2.c's Config passed by value). */
#include <math.h>

typedef struct { int dim; int n_tokens; float eps; } Config;

void rmsnorm_cfg(Config cfg, const float *x, const float *w, float *o)
{
#pragma fuse kernel(rmsnorm_cfg) parallel(t)
	for (int t = 0; t < cfg.n_tokens; t++) {
		float ss = 0.0f;
		for (int j = 0; j < cfg.dim; j++) ss += x[t * cfg.dim + j] * x[t * cfg.dim + j];
		ss = 1.0f / sqrtf(ss / cfg.dim + cfg.eps);
		for (int j = 0; j < cfg.dim; j++) o[t * cfg.dim + j] = w[j] * (ss * x[t * cfg.dim + j]);
	}
}
