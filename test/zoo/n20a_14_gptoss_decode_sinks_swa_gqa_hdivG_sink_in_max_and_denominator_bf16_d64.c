/* gpt-oss decode with learned sinks: the sink joins the max and the denominator (not P.V), sliding
 * window of W keys before pos = len - 1 on alternate layers (W passed; W >= len is full), GQA by h / G. */
#include <math.h>
#include "fusecc.h"
void gptoss_decode(int B, int H, int G, int L, int W, const fusecc_bf16 q[B][H][64], const fusecc_bf16 k[B][H / G][L][64],
		   const fusecc_bf16 v[B][H / G][L][64], const float sinks[H], const int len[B], fusecc_bf16 o[B][H][64])
{
#pragma fuse kernel(gptoss_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / G;
			const int n = len[b];
			float s[L];
			float m = sinks[h];
			for (int j = 0; j < n; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++) dot += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
				s[j] = (j < n - W) ? -INFINITY : dot * 0.125f;
				m = fmaxf(m, s[j]);
			}
			float l = expf(sinks[h] - m);
			for (int j = 0; j < n; j++) l += expf(s[j] - m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < n; j++) acc += expf(s[j] - m) * fusecc_bf16_to_float(v[b][kvh][j][d]);
				o[b][h][d] = fusecc_float_to_bf16(acc / l);
			}
		}
}
