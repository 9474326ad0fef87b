/* PaLM-style cross-entropy with z-loss (1e-4 * lse^2), averaged over non-ignored tokens into one
 * scalar; int32 labels with ignore_index -100; bf16 logits read through a row pointer. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void xent_zloss_mean(int N, int V, const int32_t labels[N], const fusecc_bf16 logits[N][V], float *loss)
{
	float total = 0.0f;
	int count = 0;
#pragma fuse kernel(xent_zloss_mean) parallel(n) rolling(v)
	for (int n = 0; n < N; n++) {
		const fusecc_bf16 *row = logits[n];
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, fusecc_bf16_to_float(row[v]));
		float se = 0.0f;
		for (int v = 0; v < V; v++) se += expf(fusecc_bf16_to_float(row[v]) - mx);
		const float lse = mx + logf(se);
		if (labels[n] != -100) {
			total += lse - fusecc_bf16_to_float(row[labels[n]]) + 1e-4f * lse * lse;
			count += 1;
		}
	}
	*loss = total / (float)(count > 0 ? count : 1);
}
