/* Semantic-segmentation cross-entropy: logits [B][C][HW] fp16, target [B][HW] int64 with
 * ignore_index 255 (uint8 labels promoted), per-pixel loss (reduction='none'). */
#include <math.h>
#include <stdint.h>

void seg_xent(int B, int C, int HW, const _Float16 logits[B][C][HW], const int64_t target[B][HW],
	      float loss[B][HW])
{
#pragma fuse kernel(seg_xent) parallel(b, p)
	for (int b = 0; b < B; b++)
		for (int p = 0; p < HW; p++) {
			const int64_t t = target[b][p];
			if (t == 255) { loss[b][p] = 0.0f; continue; }
			float m = -INFINITY;
			for (int c = 0; c < C; c++) m = fmaxf(m, (float)logits[b][c][p]);
			float s = 0.0f;
			for (int c = 0; c < C; c++) s += expf((float)logits[b][c][p] - m);
			loss[b][p] = m + logf(s) - (float)logits[b][t][p];
		}
}
