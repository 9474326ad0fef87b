/* PROBE: additive mask built as logf(keep) (keep a 0/1 uint8 mask cast to float: log(0) = -inf), as some JAX ports do;
 * a batch whose keys are all dropped gives -inf everywhere, m = -inf, exp(NaN): the original returns NaN. */
#include <math.h>
#include <stdint.h>
void logmask_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		  const uint8_t keep[B][N], float o[B][H][N][64])
{
#pragma fuse kernel(logmask_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q[b][h][i][d] * k[b][h][j][d];
					s[j] = t * 0.125f + logf((float)keep[b][j]);
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(s[j] - m);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(s[j] - m) * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
