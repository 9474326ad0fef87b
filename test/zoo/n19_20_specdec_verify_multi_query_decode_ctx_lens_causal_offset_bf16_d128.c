/* Speculative decoding verification (Medusa/EAGLE style without tree): each sequence has ctx_lens[b] cached tokens
 * plus NQ draft tokens; draft query i sees keys 0 .. ctx_lens[b] + i. KV cache [B][KVH][MAXL][128], GQA h / (H / KVH). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void spec_verify(int B, int H, int KVH, int NQ, int MAXL, const int32_t ctx_lens[B], const fusecc_bf16 q[B][NQ][H][128],
		 const fusecc_bf16 kc[B][KVH][MAXL][128], const fusecc_bf16 vc[B][KVH][MAXL][128], fusecc_bf16 o[B][NQ][H][128])
{
	const float sm_scale = 0.08838834764831845f;
#pragma fuse kernel(spec_verify) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int kvh = h / (H / KVH);
				const int last = ctx_lens[b] + i;
				float sc[MAXL];
				float mx = -INFINITY;
				for (int j = 0; j <= last; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(kc[b][kvh][j][d]);
					sc[j] = s * sm_scale;
					mx = fmaxf(mx, sc[j]);
				}
				float den = 0.0f;
				for (int j = 0; j <= last; j++) { sc[j] = expf(sc[j] - mx); den += sc[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j <= last; j++) a += sc[j] * fusecc_bf16_to_float(vc[b][kvh][j][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(a / den);
				}
			}
}
