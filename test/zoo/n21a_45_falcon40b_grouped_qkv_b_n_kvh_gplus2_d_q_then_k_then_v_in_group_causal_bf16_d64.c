/* Falcon-40B's "new decoder architecture" fused qkv layout: per KV group, G query heads then one key
 * and one value head: qkv[B][N][KVH][G + 2][64]; query head (kh, g) reads k at [kh][G], v at
 * [kh][G + 1]; causal; output [B][N][KVH * G][64]. */
#include <math.h>
#include "fusecc.h"

void falcon40b_attn(int B, int N, int KVH, int G, const fusecc_bf16 qkv[B][N][KVH][G + 2][64],
		    fusecc_bf16 o[B][N][KVH * G][64])
{
#pragma fuse kernel(falcon40b_attn) parallel(b, kh, g, i)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float sc[N], mx = -INFINITY;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int d = 0; d < 64; d++)
							s += fusecc_bf16_to_float(qkv[b][i][kh][g][d]) * fusecc_bf16_to_float(qkv[b][j][kh][G][d]);
						sc[j] = s * 0.125f;
						mx = fmaxf(mx, sc[j]);
					}
					float l = 0.0f;
					for (int j = 0; j <= i; j++) l += expf(sc[j] - mx);
					for (int d = 0; d < 64; d++) {
						float acc = 0.0f;
						for (int j = 0; j <= i; j++) acc += expf(sc[j] - mx) * fusecc_bf16_to_float(qkv[b][j][kh][G + 1][d]);
						o[b][i][kh * G + g][d] = fusecc_float_to_bf16(acc / l);
					}
				}
}
