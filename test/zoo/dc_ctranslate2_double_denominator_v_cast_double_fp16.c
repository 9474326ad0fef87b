/* dc_ctranslate2_double_denominator_v_cast_double_fp16: decode step of an encoder-decoder
 * (CTranslate2-like CPU path): one query per (b, h) against a cache of `step + 1` keys, the
 * denominator accumulated in double with the double exp, V cast to double in the P.V, the
 * max found with fmaxf; fp16 cache, D=64, splitk(t). */
#include <math.h>
#define D 64

void decoder_self_attn_step(int B, int H, int MAXT, int step, float scale,
			    const _Float16 q[B][H][D], const _Float16 kc[B][H][MAXT][D],
			    const _Float16 vc[B][H][MAXT][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decoder_self_attn_step) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float logits[MAXT];
			float mx = -INFINITY;
			for (int t = 0; t <= step; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)kc[b][h][t][d];
				logits[t] = s * scale;
				mx = fmaxf(mx, logits[t]);
			}
			double denom = 0.0;
			for (int t = 0; t <= step; t++)
				denom += exp((double)(logits[t] - mx));
			for (int d = 0; d < D; d++) {
				double acc = 0.0;
				for (int t = 0; t <= step; t++)
					acc += exp((double)(logits[t] - mx)) * (double)vc[b][h][t][d];
				o[b][h][d] = (_Float16)(acc / denom);
			}
		}
}
