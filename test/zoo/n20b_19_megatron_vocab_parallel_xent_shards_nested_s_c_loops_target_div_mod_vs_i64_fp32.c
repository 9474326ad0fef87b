/* Megatron's _VocabParallelCrossEntropy simulated on one host: logits of every tensor-parallel
 * rank side by side, [tokens][world_size][partition_vocab_size]; the max all-reduce and the
 * sum all-reduce become loops over (rank, column); the target's rank and column are
 * target / partition_vocab_size and target % partition_vocab_size. int64 targets. */
#include <math.h>
#include <stdint.h>

void vocab_parallel_xent(int T, int world_size, int partition_vocab_size,
		const float logits[T][world_size][partition_vocab_size], const int64_t target[T], float loss[T])
{
#pragma fuse kernel(vocab_parallel_xent) parallel(t)
	for (int t = 0; t < T; t++) {
		float logits_max = -INFINITY;
		for (int rank = 0; rank < world_size; rank++)
			for (int c = 0; c < partition_vocab_size; c++)
				logits_max = fmaxf(logits_max, logits[t][rank][c]);
		float sum_exp_logits = 0.0f;
		for (int rank = 0; rank < world_size; rank++)
			for (int c = 0; c < partition_vocab_size; c++)
				sum_exp_logits += expf(logits[t][rank][c] - logits_max);
		const float predicted_logits = logits[t][target[t] / partition_vocab_size][target[t] % partition_vocab_size] - logits_max;
		loss[t] = logf(sum_exp_logits) - predicted_logits;
	}
}
