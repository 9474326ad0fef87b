/* BERT self-attention with HF's extended attention mask: (1 - mask) * finfo(fp16).min added to
 * the scores, mask stored uint8 [B][S]; a C port with flat pointers and explicit strides passed
 * as parameters (sq_b = S * H * 64, sq_s = H * 64, sq_h = 64), encoder (bidirectional). */
#include <math.h>
#include <stdint.h>

#define D 64

void bert_self_attn(int B, int S, int H, int sq_b, int sq_s, int sq_h, const uint8_t *attention_mask,
		    const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *ctx)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(bert_self_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < S; i++) {
				const _Float16 *qi = q + b * sq_b + i * sq_s + h * sq_h;
				float mx = -INFINITY;
				for (int j = 0; j < S; j++) {
					const _Float16 *kj = k + b * sq_b + j * sq_s + h * sq_h;
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)qi[d] * (float)kj[d];
					s = s * scale + (1.0f - (float)attention_mask[b * S + j]) * -65504.0f;
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j < S; j++) {
					const _Float16 *kj = k + b * sq_b + j * sq_s + h * sq_h;
					const _Float16 *vj = v + b * sq_b + j * sq_s + h * sq_h;
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)qi[d] * (float)kj[d];
					s = s * scale + (1.0f - (float)attention_mask[b * S + j]) * -65504.0f;
					const float p = expf(s - mx);
					sum += p;
					for (int d = 0; d < D; d++) acc[d] += p * (float)vj[d];
				}
				_Float16 *oi = ctx + b * sq_b + i * sq_s + h * sq_h;
				for (int d = 0; d < D; d++) oi[d] = (_Float16)(acc[d] / sum);
			}
}
