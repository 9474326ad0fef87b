/* dc_sinks_seeded_gqa_splitk_fp16.c: gpt-oss decode with sinks and GQA, one new token per
 * sequence against a cache of cache_len[b] entries.
 * Style: the sink as the softmax's extra column: the max seeded with it (float m =
 * sinks[h];), the denominator starting at its exponential (float z = expf(sinks[h] -
 * m);), and P.V normalised inside its loop (acc += expf(x - m) / z * v), so the later
 * loop reads the seeded sum; #define D 64, fp16, int32 lengths, `h / group`. splitk(j). */
#include <math.h>
#include <stdint.h>

#define D 64

void sink_decode(int B, int HQ, int HKV, int L, float scale,
		 const _Float16 q[B][HQ][D], const _Float16 kc[B][HKV][L][D],
		 const _Float16 vc[B][HKV][L][D], const int32_t cache_len[B],
		 const float sinks[HQ], _Float16 o[B][HQ][D])
{
	const int group = HQ / HKV;
#pragma fuse kernel(sink_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < HQ; h++) {
			const int kvh = h / group;
			float logits[L];
			float m = sinks[h];
			for (int j = 0; j < cache_len[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)kc[b][kvh][j][d];
				logits[j] = dot * scale;
				m = fmaxf(m, logits[j]);
			}
			float z = expf(sinks[h] - m);
			for (int j = 0; j < cache_len[b]; j++)
				z += expf(logits[j] - m);
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < cache_len[b]; j++)
					acc += expf(logits[j] - m) / z * (float)vc[b][kvh][j][d];
				o[b][h][d] = (_Float16)acc;
			}
		}
	}
}
