/* flash_attn_with_kvcache for MQA (one KV head): k_cache[B][S][D] (bshd, KV head dim dropped), q[B][H][D],
 * cache_seqlens int32, softmax_scale param. Per head: keys from the one cache. */
#include <math.h>
#include <stdint.h>
void mqa_decode(int B, int H, int S, float softmax_scale, const _Float16 q[B][H][128], const _Float16 k_cache[B][S][128],
		const _Float16 v_cache[B][S][128], const int32_t cache_seqlens[B], _Float16 out[B][H][128])
{
#pragma fuse kernel(mqa_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int L = cache_seqlens[b];
			float p[S];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k_cache[b][j][d];
				p[j] = s * softmax_scale;
				mx = fmaxf(mx, p[j]);
			}
			float l = 0;
			for (int j = 0; j < L; j++) { p[j] = expf(p[j] - mx); l += p[j]; }
			for (int d = 0; d < 128; d++) {
				float acc = 0;
				for (int j = 0; j < L; j++) acc += p[j] * (float)v_cache[b][j][d];
				out[b][h][d] = (_Float16)(acc / l);
			}
		}
}
