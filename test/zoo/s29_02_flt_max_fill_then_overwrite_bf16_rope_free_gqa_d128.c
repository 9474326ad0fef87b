/* Scores of one query row pre-filled with -FLT_MAX (a C programmer's "minus infinity"),
 * the causal part then computed; GQA (kv head h / (H / KVH)), bf16 storage, d = 128. */
#include <float.h>
#include <math.h>
#include "fusecc.h"

void gqa_prefill(int B, int H, int KVH, int S, float sm_scale, const fusecc_bf16 Q[B][S][H][128],
		 const fusecc_bf16 K[B][S][KVH][128], const fusecc_bf16 V[B][S][KVH][128], fusecc_bf16 O[B][S][H][128])
{
#pragma fuse kernel(gqa_prefill) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < S; t++) {
				int kvh = h / (H / KVH);
				float sc[S];
				for (int u = 0; u < S; u++)
					sc[u] = -FLT_MAX;
				for (int u = 0; u <= t; u++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += fusecc_bf16_to_float(Q[b][t][h][d]) * fusecc_bf16_to_float(K[b][u][kvh][d]);
					sc[u] = dot * sm_scale;
				}
				float m = sc[0];
				for (int u = 1; u < S; u++)
					if (sc[u] > m)
						m = sc[u];
				float l = 0.0f;
				for (int u = 0; u < S; u++)
					l += expf(sc[u] - m);
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int u = 0; u < S; u++)
						acc += expf(sc[u] - m) * fusecc_bf16_to_float(V[b][u][kvh][d]);
					O[b][t][h][d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
