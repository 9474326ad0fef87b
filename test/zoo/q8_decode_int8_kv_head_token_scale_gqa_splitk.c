/* h22: decode over an int8-quantised KV cache (KIVI / llama.cpp q8-like, per token and
 * head scale): k_q[B][KVH][L][128] int8 with k_scale[B][KVH][L] float, same for V; query
 * fp16, GQA by h / G, cache length per sequence. Dequantise inside the dot. */
#include <math.h>
#include <stdint.h>

void decode_int8_kv(int B, int H, int KVH, int L, float scale, const _Float16 q[B][H][128],
		    const int8_t k_q[B][KVH][L][128], const float k_scale[B][KVH][L],
		    const int8_t v_q[B][KVH][L][128], const float v_scale[B][KVH][L],
		    const int32_t cache_len[B], _Float16 o[B][H][128])
{
	const int G = H / KVH;
#pragma fuse kernel(decode_int8_kv) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / G;
			float m = -INFINITY;
			float s[L];
			for (int j = 0; j < cache_len[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 128; d++)
					dot += (float)q[b][h][d] * (float)k_q[b][kvh][j][d];
				s[j] = dot * k_scale[b][kvh][j] * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < cache_len[b]; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < cache_len[b]; j++)
					acc += s[j] * v_scale[b][kvh][j] * (float)v_q[b][kvh][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
