/* A C library user passes the model config as a struct (probably refused: check the message). */
#include <math.h>

struct attn_cfg { int n_head; int seq; };

void softmax_cfg(struct attn_cfg cfg, const float x[cfg.n_head][cfg.seq], float y[cfg.n_head][cfg.seq])
{
#pragma fuse kernel(softmax_cfg) parallel(h)
	for (int h = 0; h < cfg.n_head; h++) {
		float m = -INFINITY;
		for (int j = 0; j < cfg.seq; j++) m = fmaxf(m, x[h][j]);
		float s = 0.0f;
		for (int j = 0; j < cfg.seq; j++) s += expf(x[h][j] - m);
		for (int j = 0; j < cfg.seq; j++) y[h][j] = expf(x[h][j] - m) / s;
	}
}
