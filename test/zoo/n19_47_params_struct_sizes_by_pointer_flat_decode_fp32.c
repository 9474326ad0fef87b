/* A C library's API: sizes and scale in a params struct passed by pointer (p->B, p->H, p->L, p->scale),
 * flat float buffers; decode attention, D = 64. Expected refused (struct members); check the message. */
#include <math.h>
typedef struct { int B, H, L; float scale; } attn_params;
void attn_decode_struct(const attn_params *p, const float *q, const float *k, const float *v, float *o)
{
#pragma fuse kernel(attn_decode_struct) parallel(b, h)
	for (int b = 0; b < p->B; b++)
		for (int h = 0; h < p->H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int t = 0; t < p->L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[(b * p->H + h) * 64 + d] * k[((b * p->H + h) * p->L + t) * 64 + d];
				s *= p->scale;
				const float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
				l = l * c + e;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + e * v[((b * p->H + h) * p->L + t) * 64 + d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[(b * p->H + h) * 64 + d] = acc[d] / l;
		}
}
