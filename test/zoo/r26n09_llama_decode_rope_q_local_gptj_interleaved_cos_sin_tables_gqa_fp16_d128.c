/* A llama.cpp-style CPU decode step (GPT-J / "normal" RoPE mode: interleaved pairs 2p, 2p + 1),
 * written as a serving engine's reference: the new token's query rotated once into a local row
 * with cos/sin tables [max_pos][64] at positions[b] before the key loop (the keys were rotated
 * when they were written to the cache), then a GQA decode over lens[b] keys by h / G, fp16
 * cache, fp32 math, D = 128. */
#include <math.h>
#include <stdint.h>

void llama_decode_rope_q(int B, int H, int G, int L, int max_pos, const int32_t positions[B], const int32_t lens[B],
			 const float cos_t[max_pos][64], const float sin_t[max_pos][64], const _Float16 q[B][H][128],
			 const _Float16 k_cache[B][H / G][L][128], const _Float16 v_cache[B][H / G][L][128],
			 _Float16 out[B][H][128])
{
#pragma fuse kernel(llama_decode_rope_q) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qr[128];
			for (int p = 0; p < 64; p++) {
				float x0 = (float)q[b][h][2 * p], x1 = (float)q[b][h][2 * p + 1];
				float c = cos_t[positions[b]][p], s = sin_t[positions[b]][p];
				qr[2 * p] = x0 * c - x1 * s;
				qr[2 * p + 1] = x0 * s + x1 * c;
			}
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += qr[d] * (float)k_cache[b][h / G][t][d];
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), cr = expf(m - mn), pr = expf(s - mn);
				l = l * cr + pr;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * cr + pr * (float)v_cache[b][h / G][t][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
