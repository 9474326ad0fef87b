/* pf_textbook_O_head_columns_accum_window_d128_fp16: a textbook's multi-head attention over
 * one sequence, heads as column blocks of the model width: Q, K, V as [N][H * D] (fp16),
 * O[N][H * D] in fp32 cleared per head and accumulated key by key with the weights
 * (O[i][h * D + d] += P[j] * V[j][h * D + d]), a sliding window of W keys (j from i - W + 1,
 * clamped), the exponentials stored in P. D = 128. */
#include <math.h>
#define D 128
void mha_window(int N, int H, int W, float scale, const _Float16 Q[N][H * D], const _Float16 K[N][H * D],
                const _Float16 V[N][H * D], float O[N][H * D])
{
#pragma fuse kernel(mha_window) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			int lo = i - W + 1;
			if (lo < 0)
				lo = 0;
			float P[N];
			float M = -INFINITY;
			for (int j = lo; j <= i; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)Q[i][h * D + d] * (float)K[j][h * D + d];
				P[j] = s * scale;
				M = fmaxf(M, P[j]);
			}
			float L = 0.0f;
			for (int j = lo; j <= i; j++) {
				P[j] = expf(P[j] - M);
				L += P[j];
			}
			for (int d = 0; d < D; d++)
				O[i][h * D + d] = 0.0f;
			for (int j = lo; j <= i; j++)
				for (int d = 0; d < D; d++)
					O[i][h * D + d] += P[j] / L * (float)V[j][h * D + d];
		}
}
