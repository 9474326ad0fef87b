/* mla_prefill.c: MLA-style causal prefill (DeepSeek): q.k over DK = 192 (128 + 64 rope
 * dims), values of DV = 128, both run-time ints; the scale computed before the region.
 * specialize() narrows the GPU kernels to that pair (the default would add the equal
 * dims and 128/192); the launcher refuses other dims. Scores
 * recomputed in each pass, P.V into acc[DV] with j outside e. fp16 storage. */
#include <math.h>
void mla_prefill(int B, int H, int N, int DK, int DV,
		 const _Float16 q[B][H][N][DK], const _Float16 k[B][H][N][DK],
		 const _Float16 v[B][H][N][DV], _Float16 o[B][H][N][DV])
{
	const float sm_scale = 1.0f / sqrtf((float)DK);
#pragma fuse kernel(mla) parallel(b, h, i) rolling(j)
#pragma fuse specialize(DK: 192, DV: 128)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < DK; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * sm_scale);
				}
				float l = 0.0f;
				float acc[DV];
				for (int e = 0; e < DV; e++)
					acc[e] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < DK; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * sm_scale - m);
					l += p;
					for (int e = 0; e < DV; e++)
						acc[e] += p * (float)v[b][h][j][e];
				}
				for (int e = 0; e < DV; e++)
					o[b][h][i][e] = (_Float16)(acc[e] / l);
			}
}
