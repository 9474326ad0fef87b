/* Label smoothing that spreads eps over the C - 1 wrong classes only (the Inception-v3 /
 * "uniform over others" variant): q_c = 1 - eps at the target, eps / (C - 1) elsewhere,
 * loss = -sum_c q_c log p_c, the weight chosen per class with a select. bf16 logits. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void ls_ce_others(int N, int C, float eps, const fusecc_bf16 x[N][C], const int64_t target[N], float loss[N])
{
	const float off = eps / (C - 1);
#pragma fuse kernel(ls_ce_others) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, fusecc_bf16_to_float(x[n][c]));
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(fusecc_bf16_to_float(x[n][c]) - m);
		const float lz = logf(z);
		float l = 0.0f;
		for (int c = 0; c < C; c++) {
			const float q = (c == target[n]) ? 1.0f - eps : off;
			l -= q * (fusecc_bf16_to_float(x[n][c]) - m - lz);
		}
		loss[n] = l;
	}
}
