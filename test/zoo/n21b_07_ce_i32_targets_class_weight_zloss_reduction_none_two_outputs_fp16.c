/* Cross-entropy with class weights and PaLM's z-loss, reduction='none': per token
 * loss = w[t] * (lse - x[t]) + z * lse^2, lse also stored. int32 targets, fp16 logits. */
#include <math.h>
#include <stdint.h>

void ce_zloss(int N, int V, float z_coef, const _Float16 logits[N][V], const int32_t target[N],
	      const float weight[V], float loss[N], float lse_out[N])
{
#pragma fuse kernel(ce_zloss) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, (float)logits[n][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf((float)logits[n][v] - m);
		const float lse = m + logf(s);
		const int t = target[n];
		loss[n] = weight[t] * (lse - (float)logits[n][t]) + z_coef * lse * lse;
		lse_out[n] = lse;
	}
}
