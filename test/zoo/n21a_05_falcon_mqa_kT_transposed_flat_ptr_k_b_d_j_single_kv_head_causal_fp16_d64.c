/* Falcon-7B multi-query attention by a CUDA programmer: one shared K/V head, K kept transposed as
 * kT[b][d][j] (so the dot reads a column), flat pointers with manual index math, causal. */
#include <math.h>

void falcon_mqa(int B, int H, int N, const _Float16 *q, const _Float16 *kT, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(falcon_mqa) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++)
						acc += (float)q[b * H * N * 64 + h * N * 64 + i * 64 + d] * (float)kT[b * 64 * N + d * N + j];
					s[j] = acc * 0.125f;
					mx = fmaxf(mx, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) l += expf(s[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += expf(s[j] - mx) * (float)v[b * N * 64 + j * 64 + d];
					o[b * H * N * 64 + h * N * 64 + i * 64 + d] = (_Float16)(acc / l);
				}
			}
}
