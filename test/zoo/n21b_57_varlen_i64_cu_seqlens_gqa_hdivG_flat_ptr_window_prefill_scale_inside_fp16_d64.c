/* Varlen prefill with int64 cu_seqlens, GQA by h / G, a sliding window, flat arrays declared
 * with their totals, the scale multiplied inside the dot loop; exponentials stored in place. */
#include <math.h>
#include <stdint.h>

void varlen_swa(int S, int TOT, int H, int G, int W, const int64_t cu[S + 1], const _Float16 q[TOT * H * 64],
		const _Float16 k[TOT * (H / G) * 64], const _Float16 v[TOT * (H / G) * 64], _Float16 o[TOT * H * 64])
{
	const int KH = H / G;
#pragma fuse kernel(varlen_swa) parallel(s, h, i)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int64_t i = 0; i < cu[s + 1] - cu[s]; i++) {
				const int64_t qi = cu[s] + i;
				const int64_t lo = i - W + 1 < 0 ? 0 : i - W + 1;
				float sc[TOT];
				float mx = -INFINITY;
				for (int64_t j = lo; j <= i; j++) {
					float a = 0.0f;
					for (int d = 0; d < 64; d++)
						a += (float)q[(qi * H + h) * 64 + d] * 0.125f * (float)k[((cu[s] + j) * KH + h / G) * 64 + d];
					sc[j] = a;
					mx = fmaxf(mx, a);
				}
				float den = 0.0f;
				for (int64_t j = lo; j <= i; j++) {
					sc[j] = expf(sc[j] - mx);
					den += sc[j];
				}
				for (int d = 0; d < 64; d++) {
					float r = 0.0f;
					for (int64_t j = lo; j <= i; j++) r += sc[j] * (float)v[((cu[s] + j) * KH + h / G) * 64 + d];
					o[(qi * H + h) * 64 + d] = (_Float16)(r / den);
				}
			}
}
