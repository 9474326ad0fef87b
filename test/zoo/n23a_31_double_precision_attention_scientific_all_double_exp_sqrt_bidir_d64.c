/* A scientific-computing user (molecular transformer, validation runs) keeps everything in
 * double: double inputs and outputs, exp and sqrt in double, materialised probabilities. */
#include <math.h>

void attn_f64(int B, int H, int N, const double q[B][H][N][64], const double k[B][H][N][64], const double v[B][H][N][64],
	      double o[B][H][N][64])
{
	const double scale = 1.0 / sqrt(64.0);
#pragma fuse kernel(attn_f64) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				double p[N];
				double mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					double s = 0.0;
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					p[j] = s * scale;
					if (p[j] > mx)
						mx = p[j];
				}
				double z = 0.0;
				for (int j = 0; j < N; j++) {
					p[j] = exp(p[j] - mx);
					z += p[j];
				}
				for (int d = 0; d < 64; d++) {
					double acc = 0.0;
					for (int j = 0; j < N; j++)
						acc += p[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
}
