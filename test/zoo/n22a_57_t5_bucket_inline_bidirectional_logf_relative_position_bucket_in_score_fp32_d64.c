/* T5 relative_position_bucket computed inline in the score loop (bidirectional, 32 buckets, max
 * distance 128), as someone porting modeling_t5.py without precomputing the bucket matrix. */
#include <math.h>
#include <stdlib.h>

void t5_inline_bucket(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		      const float v[B][H][N][64], const float rel_emb[32][H], float o[B][H][N][64])
{
#pragma fuse kernel(t5_inline_bucket) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					const int rel = j - i;
					int bucket = rel > 0 ? 16 : 0;
					const int n = abs(rel);
					if (n < 8) {
						bucket += n;
					} else {
						int large = 8 + (int)(logf((float)n / 8.0f) / logf(128.0f / 8.0f) * 8.0f);
						bucket += large < 15 ? large : 15;
					}
					float s = rel_emb[bucket][h];
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = s;
					mx = fmaxf(mx, s);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					sc[j] = expf(sc[j] - mx);
					z += sc[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += sc[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
}
