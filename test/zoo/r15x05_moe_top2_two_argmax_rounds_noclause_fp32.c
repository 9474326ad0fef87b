/* MoE router top-2 by two rounds of arg-max (GShard), no clause, logits[T][E] fp32. */
#include <math.h>

void top2_router(int T, int E, const float logits[T][E], int idx[T][2], float gate[T][2])
{
#pragma fuse kernel(top2_router)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int e = 0; e < E; e++) mx = fmaxf(mx, logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++) z += expf(logits[t][e] - mx);
		float b1 = -INFINITY; int i1 = 0;
		for (int e = 0; e < E; e++) if (logits[t][e] > b1) { b1 = logits[t][e]; i1 = e; }
		float b2 = -INFINITY; int i2 = 0;
		for (int e = 0; e < E; e++) if (e != i1 && logits[t][e] > b2) { b2 = logits[t][e]; i2 = e; }
		idx[t][0] = i1; idx[t][1] = i2;
		gate[t][0] = expf(b1 - mx) / z; gate[t][1] = expf(b2 - mx) / z;
	}
}
