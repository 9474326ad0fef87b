/* The causal-masked softmax of a GPT-2 eager port (att.masked_fill(tril == 0, -inf) then
 * softmax), on a precomputed att[B][H][T][T] in bf16; the mask as a ternary on the indices. */
#include <math.h>
#include "fusecc.h"

void causal_softmax(int B, int H, int T, const fusecc_bf16 att[B][H][T][T], fusecc_bf16 out[B][H][T][T])
{
#pragma fuse kernel(causal_softmax) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float mx = -INFINITY;
				for (int s = 0; s < T; s++) {
					float a = s > t ? -INFINITY : fusecc_bf16_to_float(att[b][h][t][s]);
					mx = fmaxf(mx, a);
				}
				float sum = 0.0f;
				for (int s = 0; s < T; s++) {
					float a = s > t ? -INFINITY : fusecc_bf16_to_float(att[b][h][t][s]);
					sum += expf(a - mx);
				}
				for (int s = 0; s < T; s++) {
					float a = s > t ? -INFINITY : fusecc_bf16_to_float(att[b][h][t][s]);
					out[b][h][t][s] = fusecc_float_to_bf16(expf(a - mx) / sum);
				}
			}
}
