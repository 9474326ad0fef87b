/* A scientist's reference: dot products and the softmax in double (exp, not expf), a double scale
 * 1/sqrt(d), results rounded to fp16 only at the store. Bidirectional encoder attention. */
#include <math.h>
void ref_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
	      _Float16 o[B][H][N][64])
{
	const double scale = 1.0 / sqrt(64.0);
#pragma fuse kernel(ref_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				double s[N];
				double m = -INFINITY;
				for (int j = 0; j < N; j++) {
					double dot = 0.0;
					for (int d = 0; d < 64; d++) dot += (double)q[b][h][i][d] * (double)k[b][h][j][d];
					s[j] = dot * scale;
					if (s[j] > m) m = s[j];
				}
				double z = 0.0;
				for (int j = 0; j < N; j++) z += exp(s[j] - m);
				for (int d = 0; d < 64; d++) {
					double acc = 0.0;
					for (int j = 0; j < N; j++) acc += exp(s[j] - m) * (double)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / z);
				}
			}
}
