/* Entropy of the next-token distribution (a sampling / uncertainty metric) over GPT-2's 50257
 * tokens, bf16 logits: H = log Z - sum p * (x - m), written with p computed explicitly. */
#include <math.h>
#include "fusecc.h"

void tok_entropy(int T, const fusecc_bf16 logits[T][50257], float entropy[T])
{
#pragma fuse kernel(tok_entropy) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < 50257; v++) mx = fmaxf(mx, fusecc_bf16_to_float(logits[t][v]));
		float z = 0.0f;
		for (int v = 0; v < 50257; v++) z += expf(fusecc_bf16_to_float(logits[t][v]) - mx);
		float h = 0.0f;
		for (int v = 0; v < 50257; v++) {
			float xm = fusecc_bf16_to_float(logits[t][v]) - mx;
			float p = expf(xm) / z;
			h -= p * (xm - logf(z));
		}
		entropy[t] = h;
	}
}
