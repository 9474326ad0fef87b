/* fairseq MultiheadAttention with key_padding_mask (nonzero = padding) given as int, as an
 * older C++ extension kept it; padded queries skipped and their outputs zeroed; q already
 * scaled by the caller (fairseq scales q by head_dim ** -0.5 after the projection). */
#include <math.h>

void fairseq_mha(int bsz, int num_heads, int tgt_len, const _Float16 q[bsz][num_heads][tgt_len][64],
		const _Float16 k[bsz][num_heads][tgt_len][64], const _Float16 v[bsz][num_heads][tgt_len][64],
		const int key_padding_mask[bsz][tgt_len], _Float16 attn[bsz][num_heads][tgt_len][64])
{
#pragma fuse kernel(fairseq_mha)
	for (int b = 0; b < bsz; b++)
		for (int h = 0; h < num_heads; h++)
			for (int t = 0; t < tgt_len; t++) {
				if (key_padding_mask[b][t]) {
					for (int e = 0; e < 64; e++) attn[b][h][t][e] = (_Float16)0.0f;
					continue;
				}
				float w[tgt_len];
				float mx = -INFINITY;
				for (int s = 0; s < tgt_len; s++) {
					float dot = 0.0f;
					for (int e = 0; e < 64; e++) dot += (float)q[b][h][t][e] * (float)k[b][h][s][e];
					w[s] = key_padding_mask[b][s] ? -INFINITY : dot;
					mx = fmaxf(mx, w[s]);
				}
				float den = 0.0f;
				for (int s = 0; s < tgt_len; s++) { w[s] = expf(w[s] - mx); den += w[s]; }
				for (int e = 0; e < 64; e++) {
					float a = 0.0f;
					for (int s = 0; s < tgt_len; s++) a += w[s] * (float)v[b][h][s][e];
					attn[b][h][t][e] = (_Float16)(a / den);
				}
			}
}
