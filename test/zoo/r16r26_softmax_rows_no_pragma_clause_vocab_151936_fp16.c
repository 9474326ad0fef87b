/* Plain softmax over Qwen's 151936-token vocabulary with a bare pragma (no parallel clause), a
 * single row loop, fp16 in and out: the simplest thing a user tries first. */
#include <math.h>

void vocab_softmax(int B, const _Float16 x[B][151936], _Float16 y[B][151936])
{
#pragma fuse kernel(vocab_softmax)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < 151936; v++) m = fmaxf(m, (float)x[b][v]);
		float s = 0.0f;
		for (int v = 0; v < 151936; v++) s += expf((float)x[b][v] - m);
		for (int v = 0; v < 151936; v++) y[b][v] = (_Float16)(expf((float)x[b][v] - m) / s);
	}
}
