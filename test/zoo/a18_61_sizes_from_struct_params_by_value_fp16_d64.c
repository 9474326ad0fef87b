/* Message check: sizes passed in a struct (a C API's `attn_params`), read as p.B, p.H, p.N. */
#include <math.h>

struct attn_params { int B, H, N; float scale; };

void attn_struct(struct attn_params p, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(attn_struct) parallel(b, h, i)
	for (int b = 0; b < p.B; b++)
		for (int h = 0; h < p.H; h++)
			for (int i = 0; i < p.N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < p.N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[((b * p.H + h) * p.N + i) * 64 + d] * (float)k[((b * p.H + h) * p.N + j) * 64 + d];
					s *= p.scale;
					const float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
					l = l * c + e;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + e * (float)v[((b * p.H + h) * p.N + j) * 64 + d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[((b * p.H + h) * p.N + i) * 64 + d] = (_Float16)(acc[d] / l);
			}
}
