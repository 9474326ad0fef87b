/* Triage round 13 probe (kept as a regression test): an int counter of visible keys inside the key loop, used after (entropy-normalised
 * output: lse minus log of the count). */
#include <math.h>
#include <stdbool.h>

void cnt_keys(int B, int N, const bool keep[B][N], const float x[B][N], float out[B])
{
#pragma fuse kernel(cnt_keys) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		int n = 0;
		for (int j = 0; j < N; j++)
			if (keep[b][j]) { m = fmaxf(m, x[b][j]); n++; }
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			if (keep[b][j]) s += expf(x[b][j] - m);
		out[b] = m + logf(s) - logf((float)n);
	}
}
