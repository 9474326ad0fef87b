/* row_xent_loss_count_out_elements_ignore_fp32: class-index cross-entropy with
 * ignore_index (PyTorch's reduction='mean'; any negative target is skipped), the loss sum
 * and the count of valid tokens kept in out[0] and out[1], both zeroed before the loop;
 * the mean divided in place after it.
 * Style: a PyTorch user's CPU reference for a fused kernel: the output array doubles as
 * the accumulator, the row's max and sum of exponentials by hand, no strategy clause. */
#include <math.h>

void xent_mean(int T, int V, const float logits[T][V], const int target[T], float out[2])
{
	out[0] = 0.0f;
	out[1] = 0.0f;
#pragma fuse kernel(xent_mean) parallel(t)
	for (int t = 0; t < T; t++) {
		if (target[t] < 0)
			continue;
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[t][v] - m);
		out[0] += m + logf(z) - logits[t][target[t]];
		out[1] += 1.0f;
	}
	out[0] = out[1] > 0.0f ? out[0] / out[1] : 0.0f;
}
