/* Per-pixel CE over a small label set with int16 targets (a C caller saving memory;
 * 255 = ignore), pixels as rows of [P][C] logits. */
#include <math.h>
#include <stdint.h>

void seg_ce(int P, int C, const float logits[P][C], const int16_t label[P], float loss[P])
{
#pragma fuse kernel(seg_ce) parallel(p)
	for (int p = 0; p < P; p++) {
		if (label[p] == 255) {
			loss[p] = 0.0f;
			continue;
		}
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, logits[p][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(logits[p][c] - m);
		loss[p] = m + logf(s) - logits[p][label[p]];
	}
}
