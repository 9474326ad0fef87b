/* RL policy entropy, written step by step: max, sum of exp, logz = log(sum); logz += max;
 * then the entropy sum over the row reading logz. */
#include <math.h>
void policy_entropy(int R, int C, const float logits[R][C], float ent[R])
{
#pragma fuse kernel(policy_entropy) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, logits[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf(logits[r][c] - mx);
		float logz = logf(z);
		logz += mx;
		float h = 0.0f;
		for (int c = 0; c < C; c++) {
			float lp = logits[r][c] - logz;
			h -= expf(lp) * lp;
		}
		ent[r] = h;
	}
}
