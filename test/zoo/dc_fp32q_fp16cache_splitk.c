/* dc_fp32q_fp16cache_splitk.c: decode attention whose query comes straight out of an fp32
 * projection + RoPE (kept fp32) while the KV cache is fp16 to save memory; fp32 output
 * (it feeds the fp32 o_proj).
 * Style: `#define D 128`, cache [B][H][L][D], scale parameter, 1-letter names, the dot
 * recomputed in each pass with an implicit float promotion of q, exp and sum in one pass
 * with P.V (j outer), a[D] zeroed in a loop. splitk(j). */
#include <math.h>

#define D 128

void decode_mixed(int B, int H, int L, float scale,
		  const float q[B][H][D],
		  const _Float16 kc[B][H][L][D],
		  const _Float16 vc[B][H][L][D],
		  float o[B][H][D])
{
#pragma fuse kernel(decode_mixed) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * (float)kc[b][h][j][d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f, a[D];
			for (int d = 0; d < D; d++)
				a[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * (float)kc[b][h][j][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < D; d++)
					a[d] += p * (float)vc[b][h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = a[d] / l;
		}
}
