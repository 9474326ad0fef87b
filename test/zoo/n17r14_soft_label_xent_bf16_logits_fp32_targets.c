/* Cross-entropy against soft targets (mixup / distillation): loss = -sum_c t[c] * log_softmax(x)[c],
 * bf16 logits, fp32 target probabilities. */
#include <math.h>
#include "fusecc.h"

void soft_xent(int N, int C, const fusecc_bf16 x[N][C], const float tgt[N][C], float loss[N])
{
#pragma fuse kernel(soft_xent) parallel(n) rolling(c)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, fusecc_bf16_to_float(x[n][c]));
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf(fusecc_bf16_to_float(x[n][c]) - m);
		const float lz = m + logf(z);
		float acc = 0.0f;
		for (int c = 0; c < C; c++) acc -= tgt[n][c] * (fusecc_bf16_to_float(x[n][c]) - lz);
		loss[n] = acc;
	}
}
