/* pf_softcap_helper_functions_causal_fp16.c: causal softcap prefill written with small helper
 * functions, as C programmers factor code: `static inline float softcap(float x, float cap)`
 * returning an expression, a conversion helper `to_f(_Float16)`, and a helper with a const
 * local before its return (`scaled`); calls nested in calls. #define-free D 128 literal.
 * rolling(j), parallel(b, h, i). */
#include <math.h>
static inline float softcap(float x, float cap) { return cap * tanhf(x / cap); }
static inline float to_f(_Float16 h) { return (float)h; }
static float scaled(float s, float scale)
{
	const float t = s * scale;
	return t;
}

void attn_helpers(int B, int H, int N, float scale, const _Float16 q[B][H][N][128],
		  const _Float16 k[B][H][N][128], const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn_helpers) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += to_f(q[b][h][i][d]) * to_f(k[b][h][j][d]);
					m = fmaxf(m, softcap(scaled(s, scale), 50.0f));
				}
				float l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += to_f(q[b][h][i][d]) * to_f(k[b][h][j][d]);
					float p = expf(softcap(scaled(s, scale), 50.0f) - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * to_f(v[b][h][j][d]);
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
