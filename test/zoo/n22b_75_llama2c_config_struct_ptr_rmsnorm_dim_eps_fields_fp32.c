/* A llama2.c fork that passes its Config by pointer to every op: the final RMSNorm over the batch
 * reads p->dim and p->norm_eps. */
#include <math.h>

typedef struct {
	int dim;
	int hidden_dim;
	int n_layers;
	float norm_eps;
} Config;

void final_rmsnorm(const Config *p, int B, const float x[B][p->dim], const float w[p->dim], float o[B][p->dim])
{
#pragma fuse kernel(final_rmsnorm) parallel(b)
	for (int b = 0; b < B; b++) {
		float ss = 0.0f;
		for (int j = 0; j < p->dim; j++)
			ss += x[b][j] * x[b][j];
		ss /= p->dim;
		ss += p->norm_eps;
		ss = 1.0f / sqrtf(ss);
		for (int j = 0; j < p->dim; j++)
			o[b][j] = w[j] * (ss * x[b][j]);
	}
}
