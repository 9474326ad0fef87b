/* segment_csr max-then-softmax (torch_scatter segment softmax on sorted edges, ptr offsets). */
#include <math.h>
#include <stdint.h>
void seg_softmax(int S, int E, const int64_t ptr[S + 1], const float x[E], float y[E])
{
#pragma fuse kernel(seg_softmax) parallel(s)
	for (int s = 0; s < S; s++) {
		float m = -INFINITY;
		for (int64_t e = ptr[s]; e < ptr[s + 1]; e++) m = fmaxf(m, x[e]);
		float z = 0;
		for (int64_t e = ptr[s]; e < ptr[s + 1]; e++) z += expf(x[e] - m);
		for (int64_t e = ptr[s]; e < ptr[s + 1]; e++) y[e] = expf(x[e] - m) / z;
	}
}
