/* HF T5 decoder self-attention with a KV cache, transcribed from modeling_t5.py:
 * _relative_position_bucket(bidirectional=False): relative_position = -min(mem - ctx, 0),
 * max_exact = num_buckets / 2, log-spaced buckets above it clamped to num_buckets - 1.
 * Queries are the Nq new tokens at positions past_len + i; keys are the past_len + Nq cached
 * ones. T5 uses no 1/sqrt(d) scale. The bias table is rel_bias[num_buckets][H]. fp32. */
#include <math.h>

#define NUM_BUCKETS 32
#define MAX_DISTANCE 128

static int rel_bucket_causal(int relative_position)
{
	int rp = -relative_position;
	if (rp < 0)
		rp = 0;
	const int max_exact = NUM_BUCKETS / 2;
	if (rp < max_exact)
		return rp;
	int large = max_exact + (int)(logf((float)rp / max_exact) / logf((float)MAX_DISTANCE / max_exact) *
				      (NUM_BUCKETS - max_exact));
	return large < NUM_BUCKETS - 1 ? large : NUM_BUCKETS - 1;
}

void t5_decoder_self_attn(int B, int H, int Nq, int past_len, int Lmax, const float q[B][H][Nq][64],
			  const float k_cache[B][H][Lmax][64], const float v_cache[B][H][Lmax][64],
			  const float rel_bias[NUM_BUCKETS][H], float out[B][H][Nq][64])
{
#pragma fuse kernel(t5_dec_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				const int qpos = past_len + i;
				float scores[Lmax];
				float mx = -INFINITY;
				for (int j = 0; j <= qpos; j++) {
					float s = rel_bias[rel_bucket_causal(j - qpos)][h];
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * k_cache[b][h][j][d];
					scores[j] = s;
					if (s > mx)
						mx = s;
				}
				float sum = 0.0f;
				for (int j = 0; j <= qpos; j++) {
					scores[j] = expf(scores[j] - mx);
					sum += scores[j];
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= qpos; j++)
						a += scores[j] * v_cache[b][h][j][d];
					out[b][h][i][d] = a / sum;
				}
			}
}
