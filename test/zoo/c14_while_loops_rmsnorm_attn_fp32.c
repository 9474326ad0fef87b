/* c14_while_loops_rmsnorm_attn_fp32.c: code ported from a language without C's for: every
 * loop a `while` with its counter declared (or reset) just before it and stepped last.
 * An RMSNorm of the queries, then decode attention over mem_len[b] cached keys.
 * Style: fp32, D=64, scores recomputed in each pass (no scores row), j reset with `j = 0;`. */
#include <math.h>
#define D 64

void rms_q(int B, float eps, const float x[B][D], const float w[D], float q[B][D])
{
#pragma fuse kernel(rms_q) parallel(b)
	for (int b = 0; b < B; b++) {
		float ss = 0.0f;
		int d = 0;
		while (d < D) {
			ss += x[b][d] * x[b][d];
			d++;
		}
		const float r = 1.0f / sqrtf(ss / D + eps);
		int e = 0;
		while (e < D) {
			q[b][e] = x[b][e] * r * w[e];
			e += 1;
		}
	}
}

void decode_while(int B, int M, float scale, const int mem_len[B], const float q[B][D],
		  const float k[B][M][D], const float v[B][M][D], float o[B][D])
{
#pragma fuse kernel(decode_while) parallel(b) rolling(j)
	for (int b = 0; b < B; b++) {
		int j;
		float m = -INFINITY;
		j = 0;
		while (j < mem_len[b]) {
			float t = 0.0f;
			int d = 0;
			while (d < D) {
				t += q[b][d] * k[b][j][d];
				d++;
			}
			m = fmaxf(m, t * scale);
			j++;
		}
		float l = 0.0f;
		j = 0;
		while (j < mem_len[b]) {
			float t = 0.0f;
			int d = 0;
			while (d < D) {
				t += q[b][d] * k[b][j][d];
				d++;
			}
			l += expf(t * scale - m);
			j++;
		}
		int d = 0;
		while (d < D) {
			float a = 0.0f;
			j = 0;
			while (j < mem_len[b]) {
				float t = 0.0f;
				int e = 0;
				while (e < D) {
					t += q[b][e] * k[b][j][e];
					e++;
				}
				a += expf(t * scale - m) * v[b][j][d];
				j = j + 1;
			}
			o[b][d] = a / l;
			d++;
		}
	}
}
