/* HPC-style paged decode: restrict pointers, run-time page size, int64 block table, a
 * counted while loop over the keys, GQA by h / G, exp2f with log2(e) folded into the scale. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>

void paged_decode(int B, int H, int G, int P, int MAXB, int NB, const _Float16 *restrict q,
		  const _Float16 kpool[NB][P][H / G][128], const _Float16 vpool[NB][P][H / G][128],
		  const int64_t table[B][MAXB], const int32_t lens[B], float *restrict out)
{
	const float qk_scale = 0.08838834764831845f * 1.4426950408889634f;
#pragma fuse kernel(paged_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kh = h / G;
			const _Float16 *restrict qr = q + ((size_t)b * H + h) * 128;
			float mx = -INFINITY;
			int t = 0;
			while (t < lens[b]) {
				const int64_t page = table[b][t / P];
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)qr[d] * (float)kpool[page][t % P][kh][d];
				mx = fmaxf(mx, s * qk_scale);
				t++;
			}
			float sum = 0.0f;
			float acc[128] = {0};
			for (int u = 0; u < lens[b]; u++) {
				const int64_t page = table[b][u / P];
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)qr[d] * (float)kpool[page][u % P][kh][d];
				const float p = exp2f(s * qk_scale - mx);
				sum += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)vpool[page][u % P][kh][d];
			}
			for (int d = 0; d < 128; d++) out[((size_t)b * H + h) * 128 + d] = acc[d] / sum;
		}
}
