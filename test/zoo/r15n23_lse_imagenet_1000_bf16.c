/* torch.logsumexp(logits, dim=-1) over ImageNet's 1000 classes, bf16 logits, fp32 result. */
#include <math.h>
#include "fusecc.h"

void lse1000(int B, const fusecc_bf16 logits[B][1000], float lse[B])
{
#pragma fuse kernel(lse1000) parallel(b) rolling(k)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int k = 0; k < 1000; k++) {
			float x = fusecc_bf16_to_float(logits[b][k]);
			if (x > m) m = x;
		}
		float s = 0.0f;
		for (int k = 0; k < 1000; k++) s += expf(fusecc_bf16_to_float(logits[b][k]) - m);
		lse[b] = m + logf(s);
	}
}
