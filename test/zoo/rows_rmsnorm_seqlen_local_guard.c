/* RMSNorm of a padded batch [B][L][D], tokens past each sequence's length skipped through
 * a local copy of it (`int n = seqlen[b]; if (t >= n) continue;`), the padding left as it
 * was; a serving engine's CPU fallback. */
#include <math.h>

void rmsnorm_padded(int B, int L, int D, const int seqlen[B], const _Float16 x[B][L][D], const _Float16 g[D], _Float16 y[B][L][D])
{
#pragma fuse kernel(rmsnorm_padded) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < L; t++) {
			int n = seqlen[b];
			if (t >= n)
				continue;
			float ss = 0.0f;
			for (int d = 0; d < D; d++)
				ss += (float)x[b][t][d] * (float)x[b][t][d];
			float r = 1.0f / sqrtf(ss / D + 1e-6f);
			for (int d = 0; d < D; d++)
				y[b][t][d] = (_Float16)((float)x[b][t][d] * r * (float)g[d]);
		}
}
