/* llm.c's crossentropy_forward with its sizes gathered into a config struct, passed by
 * pointer as llm.c passes GPT2Config around (config->vocab_size and friends): B, T and V
 * as loop bounds, the target indices an int array. */
#include <math.h>

typedef struct {
	int B;
	int T;
	int V;
} CEConfig;

void crossentropy_cfg(const CEConfig *config, const float *logits, const int *targets, float *losses)
{
#pragma fuse kernel(crossentropy_cfg) parallel(b, t)
	for (int b = 0; b < config->B; b++)
		for (int t = 0; t < config->T; t++) {
			const float *row = logits + (b * config->T + t) * config->V;
			float maxv = -INFINITY;
			for (int i = 0; i < config->V; i++)
				maxv = fmaxf(maxv, row[i]);
			float sum = 0.0f;
			for (int i = 0; i < config->V; i++)
				sum += expf(row[i] - maxv);
			losses[b * config->T + t] = logf(sum) + maxv - row[targets[b * config->T + t]];
		}
}
