/* KV cache in fp16 with a per-token dequant scale multiplied per element inside the d loop
 * (k[j][d] * ks[j]), as a quantisation person writes it; decode, GQA by group loop, D=128. */
#include <math.h>

void decode_kvscale(int B, int KVH, int G, int L, const int lens[B], const _Float16 q[B][KVH][G][128],
		    const _Float16 k[B][KVH][L][128], const float ks[B][KVH][L], const _Float16 v[B][KVH][L][128],
		    const float vs[B][KVH][L], _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(decode_kvscale) parallel(b, kh, g) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < lens[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][kh][g][d] * ((float)k[b][kh][j][d] * ks[b][kh][j]);
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * ((float)v[b][kh][j][d] * vs[b][kh][j]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][kh][g][d] = (_Float16)(acc[d] / l);
			}
}
