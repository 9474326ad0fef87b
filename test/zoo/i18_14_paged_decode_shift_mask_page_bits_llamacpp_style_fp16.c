/* Paged decode by a CUDA programmer who keeps the page size a power of two given by its log:
 * page = table[b][t >> page_shift], slot = t & ((1 << page_shift) - 1); kv lengths int32,
 * GQA by h / (H / KVH), D = 128 #define, scale with exp2f and log2(e) folded. fp16. */
#include <math.h>
#include <stdint.h>

#define D 128

void paged_decode_shift(int B, int H, int KVH, int page_shift, int MAXP, int NP, const int32_t table[B][MAXP], const int32_t seq_len[B],
			const _Float16 q[B][H][D], const _Float16 kc[NP][1 << page_shift][KVH][D], const _Float16 vc[NP][1 << page_shift][KVH][D],
			_Float16 o[B][H][D])
{
	const float qk_scale = 1.4426950408889634f / sqrtf((float)D);
#pragma fuse kernel(paged_decode_shift) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			float m = -INFINITY, l = 0.0f, acc[D];
			for (int d = 0; d < D; d++) acc[d] = 0.0f;
			for (int t = 0; t < seq_len[b]; t++) {
				const int page = table[b][t >> page_shift];
				const int slot = t & ((1 << page_shift) - 1);
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[b][h][d] * (float)kc[page][slot][kvh][d];
				s *= qk_scale;
				const float mn = fmaxf(m, s);
				const float alpha = exp2f(m - mn), p = exp2f(s - mn);
				l = l * alpha + p;
				for (int d = 0; d < D; d++) acc[d] = acc[d] * alpha + p * (float)vc[page][slot][kvh][d];
				m = mn;
			}
			const float inv = 1.0f / l;
			for (int d = 0; d < D; d++) o[b][h][d] = (_Float16)(acc[d] * inv);
		}
}
