/* Bucketed relative position bias with linear buckets (bucket = (j - i) / bucket_size, C division truncating
 * toward zero for negative distances, clamped to [-nb, nb]), bias table [H][2 nb + 1], bidirectional encoder. */
#include <math.h>
void bucket_bias_attn(int B, int H, int N, int bucket_size, int nb, const float rel_bias[H][2 * nb + 1], const float q[B][H][N][64],
		      const float k[B][H][N][64], const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(bucket_bias_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					int bucket = (j - i) / bucket_size;
					if (bucket < -nb) bucket = -nb;
					if (bucket > nb) bucket = nb;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s = s * 0.125f + rel_bias[h][bucket + nb];
					const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
