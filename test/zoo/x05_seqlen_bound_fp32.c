/* Padded-batch self-attention where sequence b has len[b] valid tokens (1 <= len[b] <= N):
 * both the query rows and the keys stop at len[b]; padded output rows are left untouched.
 * fp32, literal head dim 128. Style: `const int len[B]` read in both loop bounds; scale
 * parameter; ternary max; scores in s[N]; d-outer P.V; tile(i:64, j:64) rolling(j). */
#include <math.h>

void seqlen_attn(int B, int H, int N, float scale, const int len[B],
		 const float q[B][H][N][128], const float k[B][H][N][128],
		 const float v[B][H][N][128], float o[B][H][N][128])
{
#pragma fuse kernel(seqlen_attn) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < len[b]; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < len[b]; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = dot * scale;
					m = s[j] > m ? s[j] : m;
				}
				float l = 0.0f;
				for (int j = 0; j < len[b]; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < len[b]; j++)
						acc += s[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
