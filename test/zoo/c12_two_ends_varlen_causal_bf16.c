/* c12_two_ends_varlen_causal_bf16.c: the reference for flash_attn_varlen_func(causal=True)
 * with separate cu_seqlens_q and cu_seqlens_k, causal aligned bottom-right, the key loop's
 * two ends in one condition (`j <= i + len_k - len_q && j < len_k`), the dot recomputed in
 * each pass. int32 offsets, bf16 through fusecc.h, D=128, rolling(j). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define D 128

void varlen_two_ends(int nseq, int TQ, int TK, int H, float softmax_scale,
		     const int32_t cu_seqlens_q[nseq + 1], const int32_t cu_seqlens_k[nseq + 1],
		     const fusecc_bf16 q[TQ][H][D], const fusecc_bf16 k[TK][H][D],
		     const fusecc_bf16 v[TK][H][D], fusecc_bf16 out[TQ][H][D])
{
#pragma fuse kernel(varlen_two_ends) parallel(s, h, i) rolling(j)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens_q[s + 1] - cu_seqlens_q[s]; i++) {
				const int q0 = cu_seqlens_q[s], k0 = cu_seqlens_k[s];
				const int len_q = cu_seqlens_q[s + 1] - q0;
				const int len_k = cu_seqlens_k[s + 1] - k0;
				float m = -INFINITY;
				for (int j = 0; j <= i + len_k - len_q && j < len_k; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += fusecc_bf16_to_float(q[q0 + i][h][d]) * fusecc_bf16_to_float(k[k0 + j][h][d]);
					m = fmaxf(m, x * softmax_scale);
				}
				float l = 0.0f;
				for (int j = 0; j <= i + len_k - len_q && j < len_k; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += fusecc_bf16_to_float(q[q0 + i][h][d]) * fusecc_bf16_to_float(k[k0 + j][h][d]);
					l += expf(x * softmax_scale - m);
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i + len_k - len_q && j < len_k; j++) {
						float x = 0.0f;
						for (int e = 0; e < D; e++)
							x += fusecc_bf16_to_float(q[q0 + i][h][e]) * fusecc_bf16_to_float(k[k0 + j][h][e]);
						acc += expf(x * softmax_scale - m) * fusecc_bf16_to_float(v[k0 + j][h][d]);
					}
					out[q0 + i][h][d] = fusecc_float_to_bf16(l > 0.0f ? acc / l : 0.0f);
				}
			}
}
