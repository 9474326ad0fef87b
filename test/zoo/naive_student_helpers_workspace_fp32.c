/* naive_student_helpers_workspace_fp32.c: a student's first attention, fp32: three helper functions (matmul Q K^T into a
 * scores workspace, row softmax in place, matmul P V), called per (b, h) in sequence, as
 * in a homework "implement softmax(QK^T/sqrt(d))V with loops". Style: void helpers with
 * pointer params, workspace passed by the caller, no strategy clause. */
#include <math.h>

#define D 64

static void matmul_qkT(const float *Q, const float *K, float *S, int n, float scale)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float acc = 0.0f;
			for (int d = 0; d < D; d++)
				acc += Q[i * D + d] * K[j * D + d];
			S[i * n + j] = acc * scale;
		}
}

static void softmax_rows(float *S, int n)
{
	for (int i = 0; i < n; i++) {
		float mx = S[i * n];
		for (int j = 1; j < n; j++)
			if (S[i * n + j] > mx) mx = S[i * n + j];
		float sum = 0.0f;
		for (int j = 0; j < n; j++) {
			S[i * n + j] = expf(S[i * n + j] - mx);
			sum += S[i * n + j];
		}
		for (int j = 0; j < n; j++)
			S[i * n + j] /= sum;
	}
}

static void matmul_pv(const float *P, const float *V, float *O, int n)
{
	for (int i = 0; i < n; i++)
		for (int d = 0; d < D; d++) {
			float acc = 0.0f;
			for (int j = 0; j < n; j++)
				acc += P[i * n + j] * V[j * D + d];
			O[i * D + d] = acc;
		}
}

void attention(int B, int H, int N, const float *Q, const float *K, const float *V,
	       float *S, float *O)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attention) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int off = (b * H + h) * N * D;
			float *Sbh = S + (b * H + h) * N * N;
			matmul_qkT(Q + off, K + off, Sbh, N, scale);
			softmax_rows(Sbh, N);
			matmul_pv(Sbh, V + off, O + off, N);
		}
}
