/* A serving engine's decode step (vLLM-style `positions` per sequence) as its CPU reference: the new
 * token's query rotated by RoPE at positions[b] (NeoX half-split, theta computed inline with powf,
 * sinf, cosf), against a KV cache whose keys were rotated when they were written. GQA by h / G,
 * fp16 cache, fp32 math, D = 128, one query per sequence. */
#include <math.h>
#include <stdint.h>

void decode_rope(int B, int H, int G, int L, const int32_t positions[B], const _Float16 q[B][H][128],
		 const _Float16 k_cache[B][H / G][L][128], const _Float16 v_cache[B][H / G][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_rope) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) {
					float theta = (float)positions[b] * powf(10000.0f, -(float)d / 64.0f);
					float c = cosf(theta), sn = sinf(theta);
					float x1 = (float)q[b][h][d], x2 = (float)q[b][h][d + 64];
					s += (x1 * c - x2 * sn) * (float)k_cache[b][h / G][t][d] + (x2 * c + x1 * sn) * (float)k_cache[b][h / G][t][d + 64];
				}
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), cr = expf(m - mn), p = expf(s - mn);
				l = l * cr + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * cr + p * (float)v_cache[b][h / G][t][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
