/* (no schedule clause) Decode step (one query token) with interleaved GQA heads, kv head = h % KVH (some Falcon
 * ports), cache length per sequence int32, no schedule clause at all. */
#include <math.h>
#include <stdint.h>

void decode_interleaved(int B, int H, int KVH, int L, const int32_t cache_len[B],
			const _Float16 q[B][H][128], const _Float16 kc[B][KVH][L][128],
			const _Float16 vc[B][KVH][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_interleaved)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int g = h % KVH;
			float att[L];
			float mx = -INFINITY;
			for (int t = 0; t < cache_len[b]; t++) {
				float dot = 0.0f;
				for (int d = 0; d < 128; d++) dot += (float)q[b][h][d] * (float)kc[b][g][t][d];
				att[t] = dot / sqrtf(128.0f);
				mx = fmaxf(mx, att[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < cache_len[b]; t++) { att[t] = expf(att[t] - mx); sum += att[t]; }
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int t = 0; t < cache_len[b]; t++) acc += att[t] * (float)vc[b][g][t][d];
				o[b][h][d] = (_Float16)(acc / sum);
			}
		}
}
