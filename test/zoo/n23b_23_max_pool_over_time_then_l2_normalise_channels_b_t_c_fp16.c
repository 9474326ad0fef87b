/* Max-over-time pooling then L2 normalisation (sentence embeddings, text CNNs): out[b][c] =
 * max_t x[b][t][c], then out[b] /= ||out[b]||. A PyTorch user: torch.max(x, dim=1) then
 * F.normalize. The pooled row kept in a local array. */
#include <math.h>

#define C 768

void maxpool_l2norm(int B, int T, const _Float16 x[B][T][C], float out[B][C])
{
#pragma fuse kernel(maxpool_l2norm) parallel(b)
	for (int b = 0; b < B; b++) {
		float pooled[C];
		for (int c = 0; c < C; c++) {
			float m = -INFINITY;
			for (int t = 0; t < T; t++)
				m = fmaxf(m, (float)x[b][t][c]);
			pooled[c] = m;
		}
		float ss = 0.0f;
		for (int c = 0; c < C; c++)
			ss += pooled[c] * pooled[c];
		const float inv = 1.0f / fmaxf(sqrtf(ss), 1e-12f);
		for (int c = 0; c < C; c++)
			out[b][c] = pooled[c] * inv;
	}
}
