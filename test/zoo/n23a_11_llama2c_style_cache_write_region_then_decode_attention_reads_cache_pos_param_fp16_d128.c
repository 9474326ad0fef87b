/* llama2.c's forward() split into two regions in one function, as a C programmer ports it:
 * first the new token's key and value rows go into the KV cache at position pos, then the
 * token attends to cache rows 0..pos. The cache is both written and read (not const). */
#include <math.h>

void attn_step(int B, int H, int S, int pos, const _Float16 q[B][H][128], const _Float16 k_new[B][H][128],
	       const _Float16 v_new[B][H][128], _Float16 k_cache[B][H][S][128], _Float16 v_cache[B][H][S][128],
	       _Float16 out[B][H][128])
{
#pragma fuse kernel(cache_store) parallel(b, h, d)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int d = 0; d < 128; d++) {
				k_cache[b][h][pos][d] = k_new[b][h][d];
				v_cache[b][h][pos][d] = v_new[b][h][d];
			}
#pragma fuse kernel(decode_attn) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float att[S];
			float max_val = -INFINITY;
			for (int t = 0; t <= pos; t++) {
				float score = 0.0f;
				for (int i = 0; i < 128; i++)
					score += (float)q[b][h][i] * (float)k_cache[b][h][t][i];
				score /= sqrtf(128.0f);
				att[t] = score;
				if (score > max_val)
					max_val = score;
			}
			float sum = 0.0f;
			for (int t = 0; t <= pos; t++) {
				att[t] = expf(att[t] - max_val);
				sum += att[t];
			}
			for (int t = 0; t <= pos; t++)
				att[t] /= sum;
			for (int i = 0; i < 128; i++) {
				float x = 0.0f;
				for (int t = 0; t <= pos; t++)
					x += att[t] * (float)v_cache[b][h][t][i];
				out[b][h][i] = (_Float16)x;
			}
		}
}
