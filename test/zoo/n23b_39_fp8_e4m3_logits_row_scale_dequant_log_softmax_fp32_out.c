/* Logits from an fp8 GEMM with a per-row scale (the lm_head run in fp8), dequantised in
 * the log-softmax: x = fp8 * scale[r]. An inference engineer's C. */
#include <math.h>
#include "fusecc.h"

void fp8_log_softmax(int R, int V, const fusecc_fp8e4m3 q[R][V], const float scale[R], float out[R][V])
{
#pragma fuse kernel(fp8_log_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		const float sc = scale[r];
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_fp8e4m3_to_float(q[r][v]) * sc);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_fp8e4m3_to_float(q[r][v]) * sc - m);
		const float lse = m + logf(z);
		for (int v = 0; v < V; v++)
			out[r][v] = fusecc_fp8e4m3_to_float(q[r][v]) * sc - lse;
	}
}
