/* HF T5's compute_bias split the way a C porter does it: one region fills the
 * relative_position_bucket matrix (bidirectional, 32 buckets, max_distance 128) into an int32
 * output, the attention region reads relative_attention_bias[bucket[i][j]][h] (no 1/sqrt(d),
 * as T5). The bucket matrix is an output too (kept for the next layer). */
#include <math.h>
#include <stdint.h>

void t5_enc_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		 const float rel_attn_bias[32][H], int32_t bucket[N][N], float out[B][H][N][64])
{
#pragma fuse kernel(t5_buckets) parallel(i, j)
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int rel = j - i;
			int nb = 16;
			int ret = rel > 0 ? nb : 0;
			int n = rel < 0 ? -rel : rel;
			int max_exact = nb / 2;
			int val;
			if (n < max_exact)
				val = n;
			else {
				val = max_exact + (int)(logf((float)n / max_exact) / logf(128.0f / max_exact) * (nb - max_exact));
				if (val > nb - 1)
					val = nb - 1;
			}
			bucket[i][j] = ret + val;
		}
#pragma fuse kernel(t5_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = rel_attn_bias[bucket[i][j]][h];
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = s;
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					sc[j] = expf(sc[j] - mx);
					sum += sc[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += sc[j] * v[b][h][j][d];
					out[b][h][i][d] = acc / sum;
				}
			}
}
