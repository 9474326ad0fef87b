/* HPC-style fused CE + z-loss (PaLM), reduction='none': restrict flat pointers, long row index,
 * a negative target means padding (loss 0); lse saved. */
#include <math.h>
#include <stdint.h>

void ce_zloss_rows(long N, long V, float zc, const float *restrict logits, const int32_t *restrict tgt,
		   float *restrict loss, float *restrict lse_out)
{
#pragma fuse kernel(ce_zloss_rows) parallel(n)
	for (long n = 0; n < N; n++) {
		const float *restrict row = logits + n * V;
		float m = -INFINITY;
		for (long v = 0; v < V; v++)
			m = row[v] > m ? row[v] : m;
		float s = 0.0f;
		for (long v = 0; v < V; v++)
			s += expf(row[v] - m);
		const float lse = m + logf(s);
		lse_out[n] = lse;
		const int32_t t = tgt[n];
		loss[n] = t < 0 ? 0.0f : (lse - row[t]) + zc * lse * lse;
	}
}
