/* PyTorch-eager port of LlamaAttention.forward (eager path), op by op:
 * scores = q @ k^T / sqrt(d); scores.masked_fill(causal, -inf); p = softmax(scores); o = p @ v.
 * A research engineer keeps the S and P rows as arrays the way the tensors are. bhsd, fp16, D=128. */
#include <math.h>

void llama_eager_attn(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		      const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(llama_eager_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N], P[N];
				/* scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(head_dim) */
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 128; d++)
						acc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					S[j] = acc / sqrtf(128.0f);
				}
				/* scores.masked_fill_(causal_mask, float("-inf")) */
				for (int j = 0; j < N; j++)
					if (j > i)
						S[j] = -INFINITY;
				/* softmax(dim=-1, dtype=torch.float32) */
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					mx = fmaxf(mx, S[j]);
				float den = 0.0f;
				for (int j = 0; j < N; j++) {
					P[j] = expf(S[j] - mx);
					den += P[j];
				}
				for (int j = 0; j < N; j++)
					P[j] = P[j] / den;
				/* attn_output = torch.matmul(attn_weights, value_states) */
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += P[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
