/* flash_attn_varlen_qkvpacked_func(qkv, cu_seqlens, max_seqlen, causal=True) with the packed
 * qkv[total][3][H][D] as the PyTorch wrapper takes it; cu_seqlens int32; a reference written
 * for a unit test: scores of a row in a local array, softmax, then P.V. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define D 128

void varlen_qkvpacked_causal(int batch, int total, int nheads, int max_seqlen,
		const fusecc_bf16 qkv[total][3][nheads][D], const int32_t cu_seqlens[batch + 1],
		fusecc_bf16 out[total][nheads][D])
{
	const float softmax_scale = 0.08838834764831845f;
#pragma fuse kernel(varlen_qkvpacked) parallel(b, h, i)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < nheads; h++)
			for (int i = 0; i < cu_seqlens[b + 1] - cu_seqlens[b]; i++) {
				const int start = cu_seqlens[b];
				float sc[max_seqlen];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(qkv[start + i][0][h][d]) * fusecc_bf16_to_float(qkv[start + j][1][h][d]);
					sc[j] = s * softmax_scale;
					mx = fmaxf(mx, sc[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += sc[j] * fusecc_bf16_to_float(qkv[start + j][2][h][d]);
					out[start + i][h][d] = fusecc_float_to_bf16(acc / sum);
				}
			}
}
