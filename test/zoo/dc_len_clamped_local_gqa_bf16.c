/* dc_len_clamped_local_gqa_bf16.c: one decode step over a KV cache whose per-sequence
 * lengths may exceed the cache (a scheduler's off-by-one guarded against): the length is
 * copied to a local and clamped to the cache size before the loops, the KV head clamped
 * the same way. GQA by h / G, bf16 cache, head dim 128, split over the keys by fusecc.
 * Style: defensive serving code: `int n = seq_len[b]; if (n > L) n = L;` and
 * `int kvh = h / G; if (kvh >= HKV) kvh = HKV - 1;`. */
#include <math.h>
#include "fusecc.h"

void decode_clamped(int B, int H, int HKV, int G, int L, const int seq_len[B], float scale,
		    const fusecc_bf16 q[B][H][128], const fusecc_bf16 kc[B][HKV][L][128],
		    const fusecc_bf16 vc[B][HKV][L][128], fusecc_bf16 o[B][H][128])
{
#pragma fuse kernel(decode_clamped) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			int n = seq_len[b];
			if (n > L)
				n = L;
			int kvh = h / G;
			if (kvh >= HKV)
				kvh = HKV - 1;
			float mx = -INFINITY;
			for (int t = 0; t < n; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[b][kvh][t][d]);
				mx = fmaxf(mx, s * scale);
			}
			float den = 0.0f, acc[128] = {0};
			for (int t = 0; t < n; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[b][kvh][t][d]);
				float p = expf(s * scale - mx);
				den += p;
				for (int d = 0; d < 128; d++)
					acc[d] += p * fusecc_bf16_to_float(vc[b][kvh][t][d]);
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = fusecc_float_to_bf16(n > 0 ? acc[d] / den : 0.0f);
		}
}
