/* BertEmbeddings: word + position + token-type embeddings gathered by int64 ids, summed, then
 * LayerNorm (two-pass mean/var, eps 1e-12). bf16 tables, fp32 output; a plain C port. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void bert_embeddings(int B, int S, int V, int P, int E, const int64_t input_ids[B][S], const int64_t token_type_ids[B][S],
		     const fusecc_bf16 word[V][E], const fusecc_bf16 pos[P][E], const fusecc_bf16 tt[2][E],
		     const float gamma[E], const float beta[E], float out[B][S][E])
{
#pragma fuse kernel(bert_embeddings) parallel(b, s) rolling(e)
	for (int b = 0; b < B; b++)
		for (int s = 0; s < S; s++) {
			const int64_t id = input_ids[b][s];
			const int64_t ty = token_type_ids[b][s];
			float mean = 0.0f;
			for (int e = 0; e < E; e++)
				mean += fusecc_bf16_to_float(word[id][e]) + fusecc_bf16_to_float(pos[s][e]) + fusecc_bf16_to_float(tt[ty][e]);
			mean /= (float)E;
			float var = 0.0f;
			for (int e = 0; e < E; e++) {
				const float x = fusecc_bf16_to_float(word[id][e]) + fusecc_bf16_to_float(pos[s][e]) + fusecc_bf16_to_float(tt[ty][e]);
				var += (x - mean) * (x - mean);
			}
			var /= (float)E;
			const float rstd = 1.0f / sqrtf(var + 1e-12f);
			for (int e = 0; e < E; e++) {
				const float x = fusecc_bf16_to_float(word[id][e]) + fusecc_bf16_to_float(pos[s][e]) + fusecc_bf16_to_float(tt[ty][e]);
				out[b][s][e] = (x - mean) * rstd * gamma[e] + beta[e];
			}
		}
}
