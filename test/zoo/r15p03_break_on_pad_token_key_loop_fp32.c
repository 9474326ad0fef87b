/* Probe: a data-dependent early break: keys stop at the first pad id (token_ids[b][j] == 0),
 * as a C programmer scanning a zero-terminated sequence would write it. */
#include <math.h>

void attn_until_pad(int B, int N, const int token_ids[B][N], const float q[B][N][64],
		    const float k[B][N][64], const float v[B][N][64], float o[B][N][64])
{
#pragma fuse kernel(attn_until_pad) parallel(b, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY, l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int j = 0; j < N; j++) {
				if (token_ids[b][j] == 0) break;
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][i][d] * k[b][j][d];
				const float mn = fmaxf(m, s * 0.125f), c = expf(m - mn), p = expf(s * 0.125f - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][j][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[b][i][d] = l > 0.0f ? acc[d] / l : 0.0f;
		}
}
