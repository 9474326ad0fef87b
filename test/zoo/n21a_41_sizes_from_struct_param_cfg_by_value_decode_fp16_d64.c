/* Sizes passed in a config struct by value (a C library's habit: struct attn_cfg cfg), the
 * arrays as flat pointers. */
#include <math.h>

struct attn_cfg { int B, H, S; float scale; };

void cfg_decode(struct attn_cfg cfg, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(cfg_decode) parallel(b, h)
	for (int b = 0; b < cfg.B; b++)
		for (int h = 0; h < cfg.H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int j = 0; j < cfg.S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[(b * cfg.H + h) * 64 + d] * (float)k[((b * cfg.H + h) * cfg.S + j) * 64 + d];
				s *= cfg.scale;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[((b * cfg.H + h) * cfg.S + j) * 64 + d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[(b * cfg.H + h) * 64 + d] = (_Float16)(acc[d] / l);
		}
}
