/* PROBE: a port that keeps everything in the model dtype: the softmax denominator and the P.V accumulator
 * are _Float16 locals (each += rounds to fp16), max in float. The fused order must not change the roundings. */
#include <math.h>
void half_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
	       _Float16 o[B][H][N][64])
{
#pragma fuse kernel(half_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				_Float16 l = 0;
				for (int j = 0; j < N; j++) l += (_Float16)expf(s[j] - m);
				for (int d = 0; d < 64; d++) {
					_Float16 acc = 0;
					for (int j = 0; j < N; j++) acc += (_Float16)expf(s[j] - m) * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
