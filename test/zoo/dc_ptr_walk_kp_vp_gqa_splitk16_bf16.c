/* dc_ptr_walk_kp_vp_gqa_splitk16_bf16.c: GQA decode in the ggml/llama2.c habit (the nat9
 * tester's h02): the key row reached by walking a pointer (`kp += D;` after each position, before
 * the statements that no longer read it), the value column by another (`*vp; vp += D;`, vp set
 * per output element d), kv head `h / (H / KH)`, bf16 tensors behind flat pointers,
 * splitk(t: 16), run-time head dim. */
#include <math.h>
#include "fusecc.h"

void decode_gqa(int B, int H, int KH, int T, int D, float scale,
		const fusecc_bf16 *q, const fusecc_bf16 *kcache, const fusecc_bf16 *vcache,
		fusecc_bf16 *out)
{
#pragma fuse kernel(decode_gqa) parallel(b, h) splitk(t: 16)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KH);
			const fusecc_bf16 *qp = q + (b * H + h) * D;
			const fusecc_bf16 *kp = kcache + (b * KH + kvh) * T * D;
			float att[T];
			float maxv = -INFINITY;
			for (int t = 0; t < T; t++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += fusecc_bf16_to_float(qp[d]) * fusecc_bf16_to_float(kp[d]);
				kp += D;
				att[t] = dot * scale;
				if (att[t] > maxv) maxv = att[t];
			}
			float sum = 0.0f;
			for (int t = 0; t < T; t++) {
				att[t] = expf(att[t] - maxv);
				sum += att[t];
			}
			fusecc_bf16 *op = out + (b * H + h) * D;
			for (int d = 0; d < D; d++) {
				const fusecc_bf16 *vp = vcache + (b * KH + kvh) * T * D + d;
				float acc = 0.0f;
				for (int t = 0; t < T; t++) {
					acc += att[t] * fusecc_bf16_to_float(*vp);
					vp += D;
				}
				op[d] = fusecc_float_to_bf16(acc / sum);
			}
		}
}
