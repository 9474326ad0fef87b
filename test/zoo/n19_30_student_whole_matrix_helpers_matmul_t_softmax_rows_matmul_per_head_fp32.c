/* A student's attention from the textbook formula softmax(QK^T / sqrt(d)) V with whole-matrix helpers
 * (matmul_transb, softmax_rows, matmul) called once per (batch, head) on its N x N scratch. */
#include <math.h>
#include <stdlib.h>
static void matmul_transb(int n, int m, int d, const float A[n][d], const float Bm[m][d], float C[n][m], float alpha)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++) {
			float s = 0.0f;
			for (int t = 0; t < d; t++) s += A[i][t] * Bm[j][t];
			C[i][j] = s * alpha;
		}
}
static void softmax_rows(int n, int m, float X[n][m])
{
	for (int i = 0; i < n; i++) {
		float mx = -INFINITY;
		for (int j = 0; j < m; j++) if (X[i][j] > mx) mx = X[i][j];
		float s = 0.0f;
		for (int j = 0; j < m; j++) { X[i][j] = expf(X[i][j] - mx); s += X[i][j]; }
		for (int j = 0; j < m; j++) X[i][j] /= s;
	}
}
static void matmul(int n, int m, int d, const float A[n][m], const float Bm[m][d], float C[n][d])
{
	for (int i = 0; i < n; i++)
		for (int t = 0; t < d; t++) {
			float s = 0.0f;
			for (int j = 0; j < m; j++) s += A[i][j] * Bm[j][t];
			C[i][t] = s;
		}
}
void student_attention(int B, int H, int N, const float Q[B][H][N][64], const float K[B][H][N][64], const float V[B][H][N][64],
		       float O[B][H][N][64])
{
	const float alpha = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(student_attention) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			matmul_transb(N, N, 64, Q[b][h], K[b][h], S, alpha);
			softmax_rows(N, N, S);
			matmul(N, N, 64, S, V[b][h], O[b][h]);
		}
}
