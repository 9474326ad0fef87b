/* HF eager attention on a padded batch (Wav2Vec2/Whisper-encoder style): scores, masked_fill(-inf)
 * where the bool attention mask is false, softmax in place (exp, sum, divide), then P.V. An
 * all-padding batch entry gives NaN rows in PyTorch, as here. */
#include <math.h>
#include <stdbool.h>

void eager_pad(int B, int N, int H, const bool attention_mask[B][N], const float q[B][N][H][64], const float k[B][N][H][64],
	       const float v[B][N][H][64], float o[B][N][H][64])
{
#pragma fuse kernel(eager_pad) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][i][h][d] * k[b][j][h][d];
					w[j] = s * 0.125f;
					if (!attention_mask[b][j]) w[j] = -INFINITY;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, w[j]);
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); sum += w[j]; }
				for (int j = 0; j < N; j++) w[j] /= sum;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += w[j] * v[b][j][h][d];
					o[b][i][h][d] = acc;
				}
			}
}
