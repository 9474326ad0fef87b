/* A student's attention: the score and probability matrices declared once at the top of
 * the function as [N][N] and reused by every batch and head (S[i][j], not S[b][h][i][j]),
 * one loop nest per step of the formula, causal mask written into S; fp16 tensors, D = 64,
 * run-time sequence length. */
#include <math.h>

#define DH 64

void attn_student(int B, int H, int N, const _Float16 Q[B][H][N][DH], const _Float16 K[B][H][N][DH],
                  const _Float16 V[B][H][N][DH], _Float16 O[B][H][N][DH])
{
	float S[N][N];
	float P[N][N];
	float scale = 1.0f / sqrtf((float)DH);
#pragma fuse kernel(attn_student) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < DH; d++)
						dot += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
					S[i][j] = j <= i ? dot * scale : -INFINITY;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					mx = fmaxf(mx, S[i][j]);
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					P[i][j] = expf(S[i][j] - mx);
					sum += P[i][j];
				}
				for (int d = 0; d < DH; d++) {
					float o = 0.0f;
					for (int j = 0; j < N; j++)
						o += P[i][j] * (float)V[b][h][j][d];
					O[b][h][i][d] = (_Float16)(o / sum);
				}
			}
}
