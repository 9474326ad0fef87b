/* MLA decode without weight absorption, ported by someone who keeps one score
 * accumulator: `s += q_nope . k_nope` then `s += q_pe . k_pe` over the RoPE part, scale
 * applied after; k_pe shared by the heads of a sequence, the cache length per sequence
 * from an array, fp16 cache, fp32 output, split-k over the cache. */
#include <math.h>

#define DN 128
#define DR 64
#define DV 128

void mla_decode(int B, int H, int L, float scale, const int cache_len[B],
                const _Float16 q_nope[B][H][DN], const _Float16 q_pe[B][H][DR],
                const _Float16 k_nope[B][L][H][DN], const _Float16 k_pe[B][L][DR],
                const _Float16 v[B][L][H][DV], float out[B][H][DV])
{
#pragma fuse kernel(mla_decode_one_acc) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			int n = cache_len[b];
			float m = -INFINITY;
			for (int j = 0; j < n; j++) {
				float s = 0.0f;
				for (int d = 0; d < DN; d++)
					s += (float)q_nope[b][h][d] * (float)k_nope[b][j][h][d];
				for (int d = 0; d < DR; d++)
					s += (float)q_pe[b][h][d] * (float)k_pe[b][j][d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			float acc[DV] = {0};
			for (int j = 0; j < n; j++) {
				float s = 0.0f;
				for (int d = 0; d < DN; d++)
					s += (float)q_nope[b][h][d] * (float)k_nope[b][j][h][d];
				for (int d = 0; d < DR; d++)
					s += (float)q_pe[b][h][d] * (float)k_pe[b][j][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < DV; d++)
					acc[d] += p * (float)v[b][j][h][d];
			}
			for (int d = 0; d < DV; d++)
				out[b][h][d] = n > 0 ? acc[d] / l : 0.0f;
		}
}
