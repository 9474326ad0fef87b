/* pf_keypad_c89_top_decls_bf16_d128.c: nn.MultiheadAttention with a key_padding_mask
 * (_Bool, true = pad); the caller keeps at least one real key per row.
 * Style: C89, everything declared at the top of the function: iterators, the scalars
 * (float mx, den, dot, p;, dot being scratch of both passes) and the accumulator array
 * (float acc[E];); `if (key_padding_mask[b][j]) continue;` in both passes, the max as a
 * branch, the score recomputed in the value pass; bf16, #define E 128. rolling(j). */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"

#define E 128

void mha_kpm(int B, int H, int L, int S, float scale,
	     const fusecc_bf16 q[B][H][L][E], const fusecc_bf16 k[B][H][S][E],
	     const fusecc_bf16 v[B][H][S][E], const _Bool key_padding_mask[B][S],
	     fusecc_bf16 out[B][H][L][E])
{
	int b, h, i, j, e;
	float mx, den, dot, p;
	float acc[E];
#pragma fuse kernel(mha_kpm) parallel(b, h, i) rolling(j)
	for (b = 0; b < B; b++)
		for (h = 0; h < H; h++)
			for (i = 0; i < L; i++) {
				mx = -INFINITY;
				for (j = 0; j < S; j++) {
					if (key_padding_mask[b][j])
						continue;
					dot = 0.0f;
					for (e = 0; e < E; e++)
						dot += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(k[b][h][j][e]);
					if (dot * scale > mx)
						mx = dot * scale;
				}
				den = 0.0f;
				for (e = 0; e < E; e++)
					acc[e] = 0.0f;
				for (j = 0; j < S; j++) {
					if (key_padding_mask[b][j])
						continue;
					dot = 0.0f;
					for (e = 0; e < E; e++)
						dot += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(k[b][h][j][e]);
					p = expf(dot * scale - mx);
					den += p;
					for (e = 0; e < E; e++)
						acc[e] += p * fusecc_bf16_to_float(v[b][h][j][e]);
				}
				for (e = 0; e < E; e++)
					out[b][h][i][e] = fusecc_float_to_bf16(acc[e] / den);
			}
}
