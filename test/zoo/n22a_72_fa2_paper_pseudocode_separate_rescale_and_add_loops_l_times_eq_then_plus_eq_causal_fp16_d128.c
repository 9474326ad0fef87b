/* FlashAttention-2 paper pseudo-code transcribed line by line for one query row: the rescale of l and
 * O as statements of their own (l *= alpha; O *= alpha;), then the additions (l += p; O += p v). */
#include <math.h>

void fa2_pseudo(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(fa2_pseudo) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, O[128];
				for (int d = 0; d < 128; d++) O[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.08838834764831845f;
					const float m_new = fmaxf(m, s);
					const float alpha = expf(m - m_new);
					const float p = expf(s - m_new);
					l *= alpha;
					l += p;
					for (int d = 0; d < 128; d++) O[d] *= alpha;
					for (int d = 0; d < 128; d++) O[d] += p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(O[d] / l);
			}
}
