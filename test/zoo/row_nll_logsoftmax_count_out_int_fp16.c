/* row_nll_logsoftmax_count_out_int_fp16: F.nll_loss(F.log_softmax(x), y, reduction='sum')
 * with the number of tokens that counted returned next to it (a Megatron-style loss that
 * the caller divides across data-parallel ranks): both sums go straight into one-element
 * outputs the caller zeroed, the count an int.
 * Style: fp16 logits, int32 labels with -1 for padding, max and sum written as two loops,
 * `++n_tokens[0]`. */
#include <math.h>

void nll_sum_count(int T, int V, const _Float16 logits[T][V], const int labels[T], float loss_sum[1], int n_tokens[1])
{
#pragma fuse kernel(nll_sum_count) parallel(t)
	for (int t = 0; t < T; t++) {
		int y = labels[t];
		if (y < 0)
			continue;
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[t][v] - m);
		loss_sum[0] += m + logf(z) - (float)logits[t][y];
		++n_tokens[0];
	}
}
