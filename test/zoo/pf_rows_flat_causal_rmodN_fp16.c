/* Row style, as someone flattening (b, h, i) into one loop writes a causal prefill:
 * parallel(r) over B*H*N query rows, `bh = r / N` picks the head's K and V, `i = r % N`
 * the causal end; flat fp16 pointers with `#define HD 128`, max then sum then P.V,
 * each pass recomputing the dot, output normalised at the end. */
#include <math.h>

#define HD 128

void causal_rows(int B, int H, int N, float scale, const _Float16 *q, const _Float16 *k,
                 const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(causal_rows) parallel(r) rolling(j)
	for (int r = 0; r < B * H * N; r++) {
		const int bh = r / N;
		const int i = r % N;
		const _Float16 *qr = q + (long)r * HD;
		float m = -INFINITY;
		for (int j = 0; j <= i; j++) {
			float s = 0.0f;
			for (int d = 0; d < HD; d++)
				s += (float)qr[d] * (float)k[((long)bh * N + j) * HD + d];
			m = fmaxf(m, s * scale);
		}
		float l = 0.0f;
		for (int j = 0; j <= i; j++) {
			float s = 0.0f;
			for (int d = 0; d < HD; d++)
				s += (float)qr[d] * (float)k[((long)bh * N + j) * HD + d];
			l += expf(s * scale - m);
		}
		for (int d = 0; d < HD; d++) {
			float a = 0.0f;
			for (int j = 0; j <= i; j++) {
				float s = 0.0f;
				for (int e = 0; e < HD; e++)
					s += (float)qr[e] * (float)k[((long)bh * N + j) * HD + e];
				a += expf(s * scale - m) * (float)v[((long)bh * N + j) * HD + d];
			}
			o[(long)r * HD + d] = (_Float16)(a / l);
		}
	}
}
