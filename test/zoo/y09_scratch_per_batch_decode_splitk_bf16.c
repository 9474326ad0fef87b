/* y09_scratch_per_batch_decode_splitk_bf16.c: decode attention over a KV cache with the
 * score buffer and the P.V accumulator declared once per batch element, before the head
 * loop, and reused by every head (each head writes s[0..L) and acc[0..D) first).
 * Style: bf16 storage with fusecc_bf16_to_float, #define D 128, scale computed before the
 * region, max in the score loop, exp stored back, j-outer P.V into acc[D]. splitk(j:8),
 * parallel(b, h). */
#include <math.h>
#include "fusecc.h"

#define D 128

void decode_scratch_per_batch(int B, int H, int L,
			      const fusecc_bf16 q[B][H][D], const fusecc_bf16 kc[B][H][L][D],
			      const fusecc_bf16 vc[B][H][L][D], fusecc_bf16 o[B][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(decode_scratch_per_batch) parallel(b, h) splitk(j:8)
	for (int b = 0; b < B; b++) {
		float s[L];
		float acc[D];
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[b][h][j][d]);
				s[j] = dot * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++)
				for (int d = 0; d < D; d++)
					acc[d] += s[j] * fusecc_bf16_to_float(vc[b][h][j][d]);
			for (int d = 0; d < D; d++)
				o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
	}
}
