/* Decode over an asymmetric uint8 KV cache (KIVI-style: value = (byte - zero point) *
 * scale, both per token and KV head), fp32 query, GQA by a group count, per-sequence
 * lengths, run-time head dim. The dequantised value is formed inside each sum. */
#include <math.h>
#include <stdint.h>

void decode_u8zp(int B, int H, int KVH, int T, int D, const float q[B][H][D],
		 const uint8_t ku[B][T][KVH][D], const float kscale[B][T][KVH], const float kzero[B][T][KVH],
		 const uint8_t vu[B][T][KVH][D], const float vscale[B][T][KVH], const float vzero[B][T][KVH],
		 const int64_t lens[B], float out[B][H][D])
{
	const int group = H / KVH;
	const float softmax_scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(decode_u8zp) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int g = h / group;
			float logits[T];
			float maxv = -INFINITY;
			for (int t = 0; t < lens[b]; t++) {
				float x = 0.0f;
				for (int d = 0; d < D; d++)
					x += q[b][h][d] * (((float)ku[b][t][g][d] - kzero[b][t][g]) * kscale[b][t][g]);
				logits[t] = x * softmax_scale;
				maxv = fmaxf(maxv, logits[t]);
			}
			float denom = 0.0f;
			for (int t = 0; t < lens[b]; t++) {
				logits[t] = expf(logits[t] - maxv);
				denom += logits[t];
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int t = 0; t < lens[b]; t++)
					acc += logits[t] * (((float)vu[b][t][g][d] - vzero[b][t][g]) * vscale[b][t][g]);
				out[b][h][d] = acc / denom;
			}
		}
}
