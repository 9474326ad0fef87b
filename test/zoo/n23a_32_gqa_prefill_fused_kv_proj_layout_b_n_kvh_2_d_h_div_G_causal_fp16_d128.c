/* GQA prefill reading K and V straight out of a fused kv projection whose output is laid
 * out (B, N, KVH, 2, D) (k and v of one KV head adjacent, as some Megatron/NeMo layouts do);
 * q (B, N, H, D); query head h uses KV head h / G. Causal, fp16, D = 128. */
#include <math.h>

void gqa_fused_kv(int B, int N, int H, int KVH, int G, const _Float16 q[B][N][H][128],
		  const _Float16 kv[B][N][KVH][2][128], _Float16 o[B][N][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(gqa_fused_kv) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int g = h / G;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)kv[b][j][g][0][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * (float)kv[b][j][g][1][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
